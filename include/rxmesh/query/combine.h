// How RXMesh::accumulate combines what a vertex's sources (faces or edges)
// contribute: Plus (sums, the default) or Min (the least contribution: e.g. a
// front propagation's relaxation, where each face proposes a distance and the
// vertex keeps the smallest). identity() is the value of a vertex with no
// contribution. PerComponent<First, K, Rest> combines the first K of a
// vertex's N values with First and the others with Rest, so that one pass
// gathers, say, a sum and a least value (bilateral denoising's normal and
// shortest edge).
#pragma once

#include <limits>
#include <type_traits>

#include "rxmesh/core/macros.h"

namespace rxmesh {

struct Plus
{
    template <typename T>
    RXMESH_HD static T identity()
    {
        return T{};
    }
    template <typename T>
    RXMESH_HD static T apply(T a, T b)
    {
        return a + b;
    }
};

struct Min
{
    template <typename T>
    RXMESH_HD static T identity()
    {
        return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                    : std::numeric_limits<T>::max();
    }
    //! A NaN contribution never wins.
    template <typename T>
    RXMESH_HD static T apply(T a, T b)
    {
        return b < a ? b : a;
    }
};

//! Values [0, K) combine with First, [K, N) with Rest (each Plus or Min).
template <typename First, int K, typename Rest>
struct PerComponent
{
    static_assert(K >= 0, "PerComponent: K counts values");
    template <typename T>
    RXMESH_HD static T identity_at(int d)
    {
        return d < K ? First::template identity<T>() : Rest::template identity<T>();
    }
    template <typename T>
    RXMESH_HD static T apply_at(int d, T a, T b)
    {
        return d < K ? First::apply(a, b) : Rest::apply(a, b);
    }
};

namespace detail {

template <typename C, typename = void>
struct CombinesPerComponent : std::false_type
{
};
template <typename C>
struct CombinesPerComponent<
    C, std::void_t<decltype(&C::template identity_at<int>), decltype(&C::template apply_at<int>)>>
    : std::true_type
{
};

//! The identity of value d under Combine (uniform or PerComponent).
template <typename Combine, typename T>
RXMESH_HD T combine_identity(int d)
{
    if constexpr (CombinesPerComponent<Combine>::value)
        return Combine::template identity_at<T>(d);
    else
        return Combine::template identity<T>();
}

//! a combined with b as value d under Combine.
template <typename Combine, typename T>
RXMESH_HD T combine_apply(int d, T a, T b)
{
    if constexpr (CombinesPerComponent<Combine>::value)
        return Combine::apply_at(d, a, b);
    else
        return Combine::apply(a, b);
}

}  // namespace detail

}  // namespace rxmesh
