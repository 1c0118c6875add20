// Internal: CSR row offsets from entries already sorted by row.
#pragma once

#include <cstdint>

#include "rxmesh/core/launch.cuh"

namespace rxmesh::detail {

//! RowOf for entries whose rows are listed in an array.
struct RowFromArray
{
    const std::uint32_t* rows;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const { return rows[i]; }
};

//! RowOf for sorted 64-bit keys that hold the row in their high bits.
struct RowFromKey
{
    const std::uint64_t* keys;
    int                  shift;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
    {
        return static_cast<std::uint32_t>(keys[i] >> shift);
    }
};

//! offsets[r] = index of the first entry of row r (entries sorted by row);
//! empty rows get the offset of the next non-empty one; offsets[rows] = n.
//! RowOf: functor i -> row of entry i. Work is O(n + rows).
template <typename RowOf>
__global__ void csr_offsets_from_sorted_rows(RowOf          row_of,
                                             std::uint64_t  n,
                                             std::uint32_t  rows,
                                             std::uint32_t* offsets)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint32_t r = row_of(i);
        const std::int64_t  prev = (i == 0) ? -1 : std::int64_t(row_of(i - 1));
        for (std::int64_t rr = prev + 1; rr <= std::int64_t(r); ++rr)
            offsets[rr] = static_cast<std::uint32_t>(i);
        if (i == n - 1)
            for (std::uint64_t rr = std::uint64_t(r) + 1; rr <= rows; ++rr)
                offsets[rr] = static_cast<std::uint32_t>(n);
    }
}

template <typename RowOf>
void csr_offsets(RowOf          row_of,
                 std::uint64_t  n,
                 std::uint32_t  rows,
                 std::uint32_t* offsets,
                 cudaStream_t   stream)
{
    if (n == 0) {
        RXMESH_CHECK_CUDA(cudaMemsetAsync(
            offsets, 0, sizeof(std::uint32_t) * (std::uint64_t(rows) + 1), stream));
        return;
    }
    csr_offsets_from_sorted_rows<<<flat_grid(n), kFlatBlockThreads, 0, stream>>>(
        row_of, n, rows, offsets);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::detail
