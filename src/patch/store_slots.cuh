// Internal to the patch-store build: where each local element of a patch
// sits (its slot) and the local id of any global element inside a patch.
#pragma once

#include <cstdint>

#include "rxmesh/core/search.cuh"

namespace rxmesh::detail {

//! A local face slot: owned faces [0, F) then ribbon entries [F, F + R).
//! A local slot of one element kind, across all patches: slot s < num_owned
//! is owned element s (global order is patch order); slot num_owned + j is
//! ribbon entry j, a sorted key (patch << bits) | element.
struct LocalSlot
{
    std::uint32_t patch, element, position;  // position: row in M_FE / M_EV
};

struct SlotLayout
{
    std::uint32_t        num_owned;
    const std::uint32_t* owner_sorted;    // patch of each owned element
    const std::uint32_t* offsets;         // owned ranges, P + 1
    const std::uint32_t* ribbon_offsets;  // P + 1
    const std::uint64_t* ribbon_keys;
    int                  bits;

    __device__ LocalSlot operator()(std::uint64_t s) const
    {
        LocalSlot ls;
        if (s < num_owned) {
            ls.element  = static_cast<std::uint32_t>(s);
            ls.patch    = owner_sorted[s];
            ls.position = ls.element + ribbon_offsets[ls.patch];
        } else {
            const std::uint64_t j = s - num_owned;
            ls.patch              = static_cast<std::uint32_t>(ribbon_keys[j] >> bits);
            ls.element  = static_cast<std::uint32_t>(ribbon_keys[j] & ((1ull << bits) - 1));
            ls.position = offsets[ls.patch + 1] + static_cast<std::uint32_t>(j);
        }
        return ls;
    }
};

//! Local ids of one element kind in any patch: owned ones by offset, ribbon
//! ones by binary search in the patch's sorted ribbon list.
struct LocalIds
{
    const std::uint32_t* owner_sorted;
    const std::uint32_t* offsets;
    const std::uint32_t* ribbon_offsets;
    const std::uint32_t* ribbon;

    __device__ std::uint32_t operator()(std::uint32_t x, std::uint32_t p) const
    {
        if (owner_sorted[x] == p) return x - offsets[p];
        const std::uint32_t at =
            detail::lower_bound_in(ribbon, ribbon_offsets[p], ribbon_offsets[p + 1], x);
        return (offsets[p + 1] - offsets[p]) + (at - ribbon_offsets[p]);
    }
};

}  // namespace rxmesh::detail
