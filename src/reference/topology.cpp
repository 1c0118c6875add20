// Reference topology: simple, serial, obviously-correct CPU code (the oracle
// of every GPU test). Everything is built from sorted, de-duplicated lists of
// (row, value) pairs, so each CSR row is sorted ascending without repeats by
// construction. Cost: a few sorts of O(faces) pairs.
#include "rxmesh/reference/topology.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;  // (row, value)

//! CSR of `rows` rows from (row, value) pairs: sorts them, drops repeats.
Csr csr_from_pairs(std::uint32_t rows, std::vector<Pair>& pairs)
{
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());

    Csr csr;
    csr.offsets.assign(std::size_t(rows) + 1, 0);
    csr.indices.reserve(pairs.size());
    for (const Pair& p : pairs) {
        ++csr.offsets[std::size_t(p.first) + 1];
        csr.indices.push_back(p.second);
    }
    for (std::uint32_t r = 0; r < rows; ++r)
        csr.offsets[r + 1] += csr.offsets[r];
    return csr;
}

std::array<std::uint32_t, 2> undirected(std::uint32_t a, std::uint32_t b)
{
    return {std::min(a, b), std::max(a, b)};
}

//! Plain union-find with path halving.
struct UnionFind
{
    std::vector<std::uint32_t> parent;

    explicit UnionFind(std::size_t n) : parent(n)
    {
        std::iota(parent.begin(), parent.end(), 0u);
    }
    std::uint32_t find(std::uint32_t x)
    {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x         = parent[x];
        }
        return x;
    }
    void unite(std::uint32_t a, std::uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    }
};

//! Throws unless every corner indexes a vertex < num_vertices and no face
//! repeats a vertex (the precondition of build_topology).
void check_faces(std::uint32_t num_vertices, const std::vector<Triangle>& faces)
{
    if (faces.size() >= std::size_t(0xFFFFFFFFu))
        throw InvalidInputError("build_topology: too many faces (" +
                                std::to_string(faces.size()) + ")");
    const auto num_faces = static_cast<std::uint32_t>(faces.size());
    for (std::uint32_t f = 0; f < num_faces; ++f) {
        const Triangle& t = faces[f];
        for (int k = 0; k < 3; ++k)
            if (t[k] >= num_vertices)
                throw InvalidInputError(
                    "build_topology: face " + std::to_string(f) + " corner " +
                    std::to_string(k) + " references vertex " +
                    std::to_string(t[k]) + " but there are only " +
                    std::to_string(num_vertices) + " vertices");
        if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
            throw InvalidInputError(
                "build_topology: face " + std::to_string(f) +
                " repeats a vertex (" + std::to_string(t[0]) + ", " +
                std::to_string(t[1]) + ", " + std::to_string(t[2]) + ")");
    }
}

//! ev: unique (min, max) pairs in lexicographic order.
void build_ev(Topology& topo, const std::vector<Triangle>& faces)
{
    topo.ev.reserve(std::size_t(3) * faces.size());
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k)
            topo.ev.push_back(undirected(t[k], t[(k + 1) % 3]));
    std::sort(topo.ev.begin(), topo.ev.end());
    topo.ev.erase(std::unique(topo.ev.begin(), topo.ev.end()), topo.ev.end());
    topo.ev.shrink_to_fit();
    if (topo.ev.size() >= (std::size_t(1) << 31))
        throw InvalidInputError("build_topology: too many edges (" +
                                std::to_string(topo.ev.size()) +
                                ") for the (edge << 1) | flip encoding");
}

//! fe: edge k of face f goes from v_k to v_{k+1}; its id is found in ev.
void build_fe(Topology& topo, const std::vector<Triangle>& faces)
{
    const auto num_faces = static_cast<std::uint32_t>(faces.size());
    topo.fe.resize(num_faces);
    for (std::uint32_t f = 0; f < num_faces; ++f) {
        const Triangle& t = faces[f];
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t from = t[k], to = t[(k + 1) % 3];
            const auto key = undirected(from, to);
            const auto it  = std::lower_bound(topo.ev.begin(), topo.ev.end(), key);
            const auto id  = static_cast<std::uint32_t>(it - topo.ev.begin());
            const std::uint32_t flip = from > to ? 1u : 0u;
            topo.fe[f][k] = (id << 1) | flip;
        }
    }
}

//! ef (edge -> faces) from fe, then ff: faces sharing an edge, every pair in
//! every ef row. `pairs` is scratch shared by the CSR stages.
void build_ef_ff(Topology& topo, std::vector<Pair>& pairs)
{
    const auto num_faces = static_cast<std::uint32_t>(topo.fe.size());
    const auto num_edges = static_cast<std::uint32_t>(topo.ev.size());

    pairs.reserve(std::size_t(3) * num_faces);
    for (std::uint32_t f = 0; f < num_faces; ++f)
        for (int k = 0; k < 3; ++k)
            pairs.emplace_back(topo.fe[f][k] >> 1, f);
    topo.ef = csr_from_pairs(num_edges, pairs);

    pairs.clear();
    for (std::uint32_t e = 0; e < num_edges; ++e)
        for (std::uint32_t i = topo.ef.offsets[e]; i < topo.ef.offsets[e + 1]; ++i)
            for (std::uint32_t j = topo.ef.offsets[e]; j < topo.ef.offsets[e + 1]; ++j)
                if (i != j)
                    pairs.emplace_back(topo.ef.indices[i], topo.ef.indices[j]);
    topo.ff = csr_from_pairs(num_faces, pairs);
}

//! vv and ve: both endpoints of every edge.
void build_vv_ve(Topology& topo, std::vector<Pair>& pairs)
{
    const auto num_edges = static_cast<std::uint32_t>(topo.ev.size());

    pairs.clear();
    for (const auto& e : topo.ev) {
        pairs.emplace_back(e[0], e[1]);
        pairs.emplace_back(e[1], e[0]);
    }
    topo.vv = csr_from_pairs(topo.num_vertices, pairs);

    pairs.clear();
    for (std::uint32_t e = 0; e < num_edges; ++e) {
        pairs.emplace_back(topo.ev[e][0], e);
        pairs.emplace_back(topo.ev[e][1], e);
    }
    topo.ve = csr_from_pairs(topo.num_vertices, pairs);
}

//! vf: every corner.
void build_vf(Topology& topo, const std::vector<Triangle>& faces, std::vector<Pair>& pairs)
{
    const auto num_faces = static_cast<std::uint32_t>(faces.size());

    pairs.clear();
    for (std::uint32_t f = 0; f < num_faces; ++f)
        for (int k = 0; k < 3; ++k)
            pairs.emplace_back(faces[f][k], f);
    topo.vf = csr_from_pairs(topo.num_vertices, pairs);
}

}  // namespace

Topology build_topology(std::uint32_t num_vertices, const std::vector<Triangle>& faces)
{
    check_faces(num_vertices, faces);

    Topology topo;
    topo.num_vertices = num_vertices;

    build_ev(topo, faces);
    build_fe(topo, faces);

    std::vector<Pair> pairs;  // scratch, reused by every CSR stage
    build_ef_ff(topo, pairs);
    build_vv_ve(topo, pairs);
    build_vf(topo, faces, pairs);

    return topo;
}

// Definitions (also in core/mesh_stats.h):
// - a vertex is referenced when some face uses it (non-empty vf row);
// - a boundary edge has exactly 1 incident face, a non-manifold edge more
//   than 2;
// - a referenced vertex is NON-MANIFOLD iff it lies on a non-manifold edge,
//   OR its incident faces, linked when two of them share an edge incident to
//   the vertex, form more than one connected group ("fan"). So the centre of
//   a bowtie is non-manifold, a boundary vertex of an open grid is manifold
//   (one open fan), and both vertices of a 3-face fin edge are non-manifold;
// - components are those of the vertex-edge graph restricted to referenced
//   vertices (unreferenced ids are not components);
// - euler = vertices - edges + faces.
MeshStats compute_stats(const Topology& topo, const std::vector<Triangle>& faces)
{
    if (topo.fe.size() != faces.size())
        throw InvalidInputError(
            "compute_stats: the topology was built from " +
            std::to_string(topo.fe.size()) + " faces, not " +
            std::to_string(faces.size()));

    MeshStats s;
    s.faces = faces.size();
    s.edges = topo.ev.size();

    for (std::uint32_t e = 0; e < topo.ef.rows(); ++e) {
        const std::uint32_t n = topo.ef.row_size(e);
        s.boundary_edges += (n == 1);
        s.nonmanifold_edges += (n > 2);
    }

    for (std::uint32_t v = 0; v < topo.vf.rows(); ++v) {
        const std::uint32_t nf = topo.vf.row_size(v);
        if (nf == 0)
            continue;
        ++s.vertices;

        const std::uint32_t* vf_row = topo.vf.indices.data() + topo.vf.offsets[v];
        auto local = [&](std::uint32_t f) {  // position of face f in vf(v)
            return static_cast<std::uint32_t>(
                std::lower_bound(vf_row, vf_row + nf, f) - vf_row);
        };

        bool          nonmanifold = false;
        UnionFind     fans(nf);
        for (std::uint32_t i = topo.ve.offsets[v]; i < topo.ve.offsets[v + 1]; ++i) {
            const std::uint32_t e = topo.ve.indices[i];
            const std::uint32_t b = topo.ef.offsets[e], end = topo.ef.offsets[e + 1];
            if (end - b > 2)
                nonmanifold = true;
            // every face of an edge incident to v is incident to v
            for (std::uint32_t j = b + 1; j < end; ++j)
                fans.unite(local(topo.ef.indices[b]), local(topo.ef.indices[j]));
        }
        if (!nonmanifold) {
            std::uint32_t groups = 0;
            for (std::uint32_t i = 0; i < nf; ++i)
                groups += (fans.find(i) == i);
            nonmanifold = groups > 1;
        }
        s.nonmanifold_vertices += nonmanifold;
    }

    UnionFind graph(topo.num_vertices);
    for (const auto& e : topo.ev)
        graph.unite(e[0], e[1]);
    for (std::uint32_t v = 0; v < topo.vf.rows(); ++v)
        if (topo.vf.row_size(v) > 0 && graph.find(v) == v)
            ++s.components;

    s.euler = static_cast<std::int64_t>(s.vertices) -
              static_cast<std::int64_t>(s.edges) +
              static_cast<std::int64_t>(s.faces);
    return s;
}

}  // namespace rxmesh::reference
