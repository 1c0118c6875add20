// Block-level building blocks of the queries (RXMesh paper, appendix B):
// an exclusive scan over a shared-memory array of any length, and the
// sparse-matrix transpose realised as a multisplit.
//
// The transpose takes a fixed-degree matrix (K entries per row, 16-bit
// column ids, e.g. M_EV with K = 2 or M_FE with K = 3) and buckets the row
// ids by column: count per column with shared-memory atomics, exclusive scan
// of the counts with cub::BlockScan, then scatter. Rows inside a bucket come
// in no particular order (queries that promise an order sort afterwards).
//
//   __shared__ typename BlockArrayScan<256>::TempStorage tmp;
//   block_transpose<256>(s_ev, num_edges, 2, 0, num_vertices, s_offsets, s_ve, tmp);
//   // s_ve[s_offsets[v] .. s_offsets[v + 1]) are the local edges of vertex v
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace rxmesh::detail {

template <int BlockThreads>
struct BlockArrayScan
{
    //! Items each thread scans per pass: one collective covers
    //! BlockThreads * kItems entries (a patch's vertices in one pass).
    static constexpr int kItems = 4;
    using Scan        = cub::BlockScan<std::uint32_t, BlockThreads>;
    using TempStorage = typename Scan::TempStorage;

    //! In-place exclusive sum of data[0, n); returns the total. All threads
    //! of the block must call it.
    __device__ static std::uint32_t exclusive(std::uint32_t* data, std::uint32_t n,
                                              TempStorage& tmp)
    {
        std::uint32_t carry = 0;
        for (std::uint32_t base = 0; base < n; base += BlockThreads * kItems) {
            // blocked arrangement: thread t holds entries base + t * kItems + k
            std::uint32_t x[kItems];
            const std::uint32_t first = base + threadIdx.x * kItems;
#pragma unroll
            for (int k = 0; k < kItems; ++k)
                x[k] = first + k < n ? data[first + k] : 0;
            std::uint32_t total;
            Scan(tmp).ExclusiveSum(x, x, total);
#pragma unroll
            for (int k = 0; k < kItems; ++k)
                if (first + k < n)
                    data[first + k] = x[k] + carry;
            carry += total;
            __syncthreads();  // tmp is reused by the next pass; data is complete
        }
        return carry;
    }
};

//! Transposes `num_rows` rows of K entries `in[r * K + k] >> shift` (column
//! ids < num_cols) into CSR form: offsets[num_cols + 1] and values (row ids),
//! num_rows * K of them. With `emit_partner` (K = 2 only: M_EV), the value
//! is the row's other entry instead of the row id, i.e. VV straight from
//! M_EV. All threads of the block must call it; the result is visible to
//! the whole block on return.
template <int BlockThreads, bool emit_partner = false>
__device__ void block_transpose(const std::uint16_t* in,
                                std::uint32_t        num_rows,
                                int                  K,
                                int                  shift,
                                std::uint32_t        num_cols,
                                std::uint32_t*       offsets,
                                std::uint16_t*       values,
                                typename BlockArrayScan<BlockThreads>::TempStorage& tmp)
{
    const std::uint32_t n = num_rows * K;
    for (std::uint32_t i = threadIdx.x; i <= num_cols; i += BlockThreads)
        offsets[i] = 0;
    __syncthreads();
    // counts of column c land in offsets[c + 1] ...
    for (std::uint32_t j = threadIdx.x; j < n; j += BlockThreads)
        atomicAdd(offsets + (in[j] >> shift) + 1, 1u);
    __syncthreads();
    // ... whose exclusive scan puts the start of column c in offsets[c + 1] ...
    BlockArrayScan<BlockThreads>::exclusive(offsets + 1, num_cols, tmp);
    // ... and the scatter advances it to the end of c, i.e. the start of c + 1.
    for (std::uint32_t j = threadIdx.x; j < n; j += BlockThreads) {
        const std::uint32_t pos = atomicAdd(offsets + (in[j] >> shift) + 1, 1u);
        if constexpr (emit_partner)
            values[pos] = static_cast<std::uint16_t>(in[j ^ 1u] >> shift);
        else
            values[pos] = static_cast<std::uint16_t>(j / K);
    }
    __syncthreads();
}

}  // namespace rxmesh::detail
