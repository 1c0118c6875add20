// Reference k-rings and predicate-limited growth by breadth-first search over
// the vertex-vertex graph, serial: the oracle of higher-order neighbourhood
// queries and the neighbourhood N(i) of the bilateral reference.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {

//! Rings of vertex v by breadth-first search over vv (reference::Csr, rows =
//! neighbours): rings[0] = {v}, rings[d] = vertices at graph distance exactly
//! d, for d <= k. Each ring sorted ascending. Stops early when a ring is
//! empty (the result then has fewer than k + 1 rings; no ring is empty).
//! \throw std::invalid_argument for v >= vv.rows() or k < 0.
std::vector<std::vector<std::uint32_t>> kring(const Csr& vv, std::uint32_t v, int k);

//! Breadth-first growth from v that enters a vertex u only if accept(u)
//! holds (v itself is always in, accept(v) is not asked): rings as in kring,
//! by distance within the accepted subgraph, each sorted ascending. Stops
//! when a ring adds no vertex or after max_rings rings beyond ring 0.
//! accept is asked only about vertices not yet entered, possibly more than
//! once about one it rejected.
//! \throw std::invalid_argument for v >= vv.rows() or max_rings < 0.
std::vector<std::vector<std::uint32_t>> grow(const Csr& vv, std::uint32_t v,
                                             const std::function<bool(std::uint32_t)>& accept,
                                             int                                       max_rings);

}  // namespace rxmesh::reference
