// CsrMesh: the "global CSR" GPU query baseline. Every one of the eight
// first-order relations is stored explicitly in device memory, in the
// canonical form of rxmesh::build_topology (edges = sorted unique vertex
// pairs, so edge ids are the canonical ones and every CSR row is sorted):
// - EV (2 per edge), FV (3 per face, the input faces), FE (3 per face, plain
//   edge ids for (v0,v1), (v1,v2), (v2,v0)): fixed-size arrays;
// - VV, VE, VF, EF, FF: CSR (offsets + indices), built on the GPU.
// A query is one thread per source element that reads its row and writes it
// out. The output offsets of the CSR ops are the CSR offsets themselves
// (allocate() copies them), so the kernels write row s at the position
// where they read it and do not read out.offsets; fixed-size ops write at
// k * s.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "query_workload.h"
#include "rxmesh/build/topology.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/query/op.h"

namespace rxmesh::baselines {

class CsrMesh
{
   public:
    //! Uploads the faces and builds the topology with rxmesh::build_topology.
    //! \pre every index < num_vertices; no face repeats a vertex
    //! \throw InvalidInputError (from build_topology) otherwise. Any mesh,
    //!        non-manifold included, is accepted.
    CsrMesh(const std::vector<rxmesh::Triangle>& faces, std::uint32_t num_vertices);

    std::uint32_t num_vertices() const { return m_topo.num_vertices; }
    std::uint32_t num_edges() const { return m_topo.num_edges; }
    std::uint32_t num_faces() const { return m_topo.num_faces; }
    std::uint32_t num_sources(rxmesh::Op op) const
    {
        return baselines::num_sources(op, num_vertices(), num_edges(), num_faces());
    }

    //! Allocates the output of `op` and fills its offsets. Synchronous; not
    //! part of the timing.
    QueryOutput allocate(rxmesh::Op op) const;

    //! Launches the query kernel of `op` writing into `out` (from
    //! allocate(op)) in blocks of `block_threads` (a multiple of 32, at most
    //! 1024); launches only, no synchronization.
    void run(rxmesh::Op op, QueryOutput& out, cudaStream_t stream = 0,
             int block_threads = kDefaultBlockThreads) const;

    static constexpr int kDefaultBlockThreads = 256;

    //! Device memory of the data structure (the eight relations).
    std::size_t bytes() const;

    //! Edge id -> its two vertices, smaller first (downloads EV; the ids are
    //! the canonical ones, so this equals reference::Topology::ev).
    EdgeVertices edge_vertices() const;

    const rxmesh::DeviceTopology& topology() const { return m_topo; }
    const std::uint32_t*          d_fv() const { return m_fv.data(); }

   private:
    rxmesh::DeviceBuffer<std::uint32_t> m_fv;  // 3 per face
    rxmesh::DeviceTopology              m_topo;  // ev, fe (plain ids), ef, ff, vv, ve, vf
};

}  // namespace rxmesh::baselines
