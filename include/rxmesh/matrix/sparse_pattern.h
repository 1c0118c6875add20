// SparsePattern: which blocks of a square block-sparse matrix over a mesh's
// vertices exist, in compressed rows (block row v: the blocks at columns
// columns[row_offsets[v] .. row_offsets[v + 1]), sorted), plus what the
// element assembly needs to fill it deterministically: the faces (3 vertex
// ids each) and, per vertex, its incident faces in ascending face id.
//
// Rows and columns are the mesh's global (patch) vertex numbering, so a
// patch's rows are contiguous; RXMesh::global_vertex_to_input() maps them to
// the input's ids. Offsets and columns are 32-bit signed, as cuSPARSE's CSR
// and BSR descriptors take them. Several matrices share one pattern (the
// Laplacian, the mass matrix, M + tL): SparseMatrix holds it by shared_ptr.
//
// Built on the device by vertex_pattern() (matrix/vertex_pattern.cuh).
#pragma once

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/macros.h"

namespace rxmesh {

//! The pattern's arrays as device code reads them (raw device pointers).
struct SparsePatternView
{
    std::uint32_t        num_rows    = 0;
    const int*           row_offsets = nullptr;  // num_rows + 1
    const int*           columns     = nullptr;  // row_offsets[num_rows]
    const std::uint32_t* faces       = nullptr;  // 3 global vertex ids per face
    const int*           incidence_offsets = nullptr;  // num_rows + 1
    //! face id * 4 + corner (0..2) of each incidence, a vertex's in
    //! ascending face id: the fixed order every element assembly sums in
    const std::uint32_t* incidences = nullptr;

    //! Index of block (row, col) in the value arrays, -1 outside the pattern.
    RXMESH_DEVICE int find(std::uint32_t row, std::uint32_t col) const
    {
        int lo = row_offsets[row], hi = row_offsets[row + 1];
        const int c = int(col);
        while (lo < hi) {  // the first column >= col
            const int mid = lo + (hi - lo) / 2;
            if (columns[mid] < c)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < row_offsets[row + 1] && columns[lo] == c ? lo : -1;
    }
};

class SparsePattern
{
   public:
    SparsePattern() = default;
    SparsePattern(std::uint32_t num_rows, DeviceBuffer<int> row_offsets,
                  DeviceBuffer<int> columns, DeviceBuffer<std::uint32_t> faces,
                  DeviceBuffer<int> incidence_offsets, DeviceBuffer<std::uint32_t> incidences)
        : m_num_rows(num_rows),
          m_row_offsets(std::move(row_offsets)),
          m_columns(std::move(columns)),
          m_faces(std::move(faces)),
          m_incidence_offsets(std::move(incidence_offsets)),
          m_incidences(std::move(incidences))
    {
    }

    std::uint32_t num_rows() const { return m_num_rows; }
    //! Stored blocks (the diagonal included).
    std::uint64_t num_blocks() const { return m_columns.size(); }
    std::uint32_t num_faces() const { return std::uint32_t(m_faces.size() / 3); }

    const int* row_offsets() const { return m_row_offsets.data(); }
    const int* columns() const { return m_columns.data(); }

    SparsePatternView view() const
    {
        return {m_num_rows,      m_row_offsets.data(),       m_columns.data(),
                m_faces.data(),  m_incidence_offsets.data(), m_incidences.data()};
    }

    //! Device bytes held: the compressed rows and the assembly's face lists.
    std::size_t bytes() const
    {
        return m_row_offsets.allocated_bytes() + m_columns.allocated_bytes() +
               m_faces.allocated_bytes() + m_incidence_offsets.allocated_bytes() +
               m_incidences.allocated_bytes();
    }
    //! The compressed rows alone (what a cuSPARSE matrix of it would hold).
    std::size_t csr_bytes() const
    {
        return m_row_offsets.allocated_bytes() + m_columns.allocated_bytes();
    }

   private:
    std::uint32_t               m_num_rows = 0;
    DeviceBuffer<int>           m_row_offsets, m_columns;
    DeviceBuffer<std::uint32_t> m_faces;
    DeviceBuffer<int>           m_incidence_offsets;
    DeviceBuffer<std::uint32_t> m_incidences;
};

}  // namespace rxmesh
