// How RXMesh::accumulate combines what a vertex's sources (faces or edges)
// contribute: Plus (sums, the default) or Min (the least contribution: e.g. a
// front propagation's relaxation, where each face proposes a distance and the
// vertex keeps the smallest). identity() is the value of a vertex with no
// contribution.
#pragma once

#include <limits>

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

}  // namespace rxmesh
