// Binary searches one thread runs over a sorted array in device (or host)
// memory: thrust's lower_bound and upper_bound with the sequential policy,
// so no kernel writes its own. For offsets of consecutive segments (CSR rows,
// the owned ranges of patches) segment_of finds the segment holding an item.
#pragma once

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include "rxmesh/core/macros.h"

namespace rxmesh::detail {

//! The first position in [lo, hi) of the sorted a whose value is not less
//! than key (hi when there is none).
template <typename T, typename I>
RXMESH_HD I lower_bound_in(const T* a, I lo, I hi, const T& key)
{
    return I(thrust::lower_bound(thrust::seq, a + lo, a + hi, key) - a);
}

//! Whether the sorted a[lo, hi) holds key.
template <typename T, typename I>
RXMESH_HD bool sorted_contains(const T* a, I lo, I hi, const T& key)
{
    const I at = lower_bound_in(a, lo, hi, key);
    return at < hi && a[at] == key;
}

//! The last segment s in [0, count) with offsets[s] <= x: the segment that
//! holds item x when offsets[0] <= x < offsets[count] (empty segments are
//! skipped).
template <typename T>
RXMESH_HD T segment_of(const T* offsets, T count, T x)
{
    return T(thrust::upper_bound(thrust::seq, offsets, offsets + count, x) - offsets) - 1;
}

}  // namespace rxmesh::detail
