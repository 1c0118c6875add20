// How a query block hands rows to the user's lambda: kElementsInFlight
// source elements per thread at a time, so that their loads are in flight
// together; short rows (at most three entries) are held in registers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "rxmesh/query/row_view.h"

namespace rxmesh::detail {

//! Elements each thread handles per step of a query's lambda phase: their
//! rows (and the user's independent loads, where the compiler can tell) are
//! in flight together.
inline constexpr int kElementsInFlight = 4;

//! The output map of a staged query, whose ribbon part was copied into a
//! window of shared memory (copy_to_window: it always has room past its
//! start): the ribbon entry is read whether or not the id is owned, then
//! selected, so mapping costs no branch. (LocalToGlobal itself reads the
//! ribbon only for ribbon ids: the direct queries' lists are in global
//! memory, where an empty list may point past the store's array.)
struct SharedRibbonMap
{
    LocalToGlobal map;
    __device__ std::uint32_t operator()(std::uint32_t local) const
    {
        const bool          owned = local < map.num_owned;
        const std::uint32_t r     = map.ribbon[owned ? 0u : local - map.num_owned];
        return owned ? map.owned_offset + local : r;
    }
};

//! Runs step(base, full) for base = 0, BlockThreads * kInFlight, ... < n:
//! each step covers elements base + j * BlockThreads + threadIdx.x, j <
//! kInFlight. `full` (std::true_type) when every element of the step exists
//! (true for all threads of the block), so that a step's lambda calls follow
//! one another without a branch: the compiler then issues the user's
//! read-only loads for later elements (an offset read with __ldg, say)
//! before the earlier elements' stores (checked in the SASS). The last,
//! partial step checks each element (std::false_type). (A per-thread exact count for the last step, 4+3+2+1 copies of the
//! user's code, and a power-of-two tail were measured and dropped: both
//! slowed EF or FF; see benchmarks/results.)
template <int BlockThreads, int kInFlight, typename Step>
__device__ void for_each_step(std::uint32_t n, Step&& step)
{
    constexpr std::uint32_t kSpan = std::uint32_t(BlockThreads) * kInFlight;
    std::uint32_t           base  = 0;
    for (; base + kSpan <= n; base += kSpan)
        step(base, std::true_type{});
    if (base < n)
        step(base, std::false_type{});
}

//! Calls user(source, row) for the owned, active source elements of a
//! patch whose rows hold at most three entries, kInFlight elements per thread
//! at a time (out: local -> global id of the output, e.g. LocalToGlobal):
//! row(i, raw) puts element i's local entries in raw[0, n) and returns n
//! (kFixed, when not 0: every row's size, known at compile time so that the
//! user's loop over the row unrolls; kMaxRow: the largest n, so that no code
//! is spent on entries that cannot exist). All rows of a step are read and
//! mapped to global ids first (their loads in flight together), then the
//! lambdas run on registers.
template <typename Source, typename Output, int BlockThreads, int kInFlight, std::uint32_t kFixed,
          std::uint32_t kMaxRow, typename Map, typename Row, typename Lambda, typename Active>
__device__ void emit_short_rows(const LocalToGlobal& src, const Map& out, int shift, Row&& row,
                                Lambda& user, Active& active)
{
    auto step = [&](std::uint32_t base, auto full) {
        std::uint16_t raw[kInFlight][3];
        std::uint32_t global[kInFlight][3];
        std::uint32_t size[kInFlight];
        bool          live[kInFlight];
#pragma unroll
        for (int j = 0; j < kInFlight; ++j) {
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            live[j]   = (full || i < src.num_owned) && active(Source(src.owned_offset + i));
            raw[j][0] = raw[j][1] = raw[j][2] = 0;
            size[j]   = kFixed;
            if (!live[j])
                continue;
            const std::uint32_t n = row(i, raw[j]);
            if constexpr (kFixed == 0)
                size[j] = min(n, kMaxRow);  // (no-op: tells the compiler the bound)
            // absent entries map local id 0 (always valid): a branch-free map
            // (SharedRibbonMap) then costs no branch at all
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                const bool present = std::uint32_t(k) < kMaxRow && std::uint32_t(k) < size[j];
                const std::uint32_t local = present ? std::uint32_t(raw[j][k] >> shift) : 0u;
                global[j][k]              = present ? out(local) : 0;
            }
        }
#pragma unroll
        for (int j = 0; j < kInFlight; ++j)
            if (live[j])
                user(Source(src.owned_offset + base + j * BlockThreads + threadIdx.x),
                     RowView<Output>(raw[j], global[j], kFixed ? kFixed : size[j], shift));
    };
    for_each_step<BlockThreads, kInFlight>(src.num_owned, step);
}

}  // namespace rxmesh::detail
