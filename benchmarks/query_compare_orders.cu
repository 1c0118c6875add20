// Input orders and refinement for bench_query_compare (see
// query_compare_orders.h).
#include "query_compare_orders.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <unordered_map>
#include <utility>

#include "rxmesh/rxmesh.cuh"

namespace rxmesh::bench::query_compare {

IndexedMesh compact_in_input_order(const TriangleSoup& soup)
{
    struct Hash
    {
        std::size_t operator()(const Vec3f& p) const
        {
            std::uint32_t b[3];
            std::memcpy(b, p.data(), sizeof(b));
            return (std::size_t(b[0]) * 73856093u) ^ (std::size_t(b[1]) * 19349663u) ^
                   (std::size_t(b[2]) * 83492791u);
        }
    };
    struct Equal
    {
        bool operator()(const Vec3f& a, const Vec3f& b) const
        {
            return std::memcmp(a.data(), b.data(), sizeof(Vec3f)) == 0;
        }
    };
    std::unordered_map<Vec3f, std::uint32_t, Hash, Equal> first;
    std::vector<std::uint32_t>                            weld(soup.positions.size());
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        weld[v] = first.emplace(soup.positions[v], v).first->second;
    IndexedMesh                out;
    std::vector<std::uint32_t> compact(soup.positions.size(), ~0u);
    for (const Triangle& t : soup.faces) {
        const Triangle w{weld[t[0]], weld[t[1]], weld[t[2]]};
        if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2])
            continue;
        out.faces.push_back(w);
    }
    std::vector<bool> used(soup.positions.size(), false);
    for (const Triangle& t : out.faces)
        for (std::uint32_t v : t)
            used[v] = true;
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        if (used[v]) {
            compact[v] = static_cast<std::uint32_t>(out.positions.size());
            out.positions.push_back(soup.positions[v]);
        }
    for (Triangle& t : out.faces)
        for (std::uint32_t& v : t)
            v = compact[v];
    return out;
}

IndexedMesh shuffled(const IndexedMesh& m, std::uint32_t seed)
{
    std::mt19937               rng(seed);
    std::vector<std::uint32_t> vperm(m.positions.size()), fperm(m.faces.size());
    std::iota(vperm.begin(), vperm.end(), 0u);
    std::iota(fperm.begin(), fperm.end(), 0u);
    std::shuffle(vperm.begin(), vperm.end(), rng);
    std::shuffle(fperm.begin(), fperm.end(), rng);
    IndexedMesh out;
    out.positions.resize(m.positions.size());
    out.faces.resize(m.faces.size());
    for (std::uint32_t v = 0; v < vperm.size(); ++v)
        out.positions[vperm[v]] = m.positions[v];
    for (std::uint32_t f = 0; f < fperm.size(); ++f)
        for (int k = 0; k < 3; ++k)
            out.faces[fperm[f]][k] = vperm[m.faces[f][k]];
    return out;
}

IndexedMesh sorted_by_patch(const RXMesh& mesh)
{
    IndexedMesh out;
    const auto  p = to_host(mesh.positions().view());
    const auto  f = mesh.faces().to_host();
    out.positions.resize(mesh.num_vertices());
    out.faces.resize(mesh.num_faces());
    std::memcpy(out.positions.data(), p.data(), p.size() * sizeof(float));
    std::memcpy(out.faces.data(), f.data(), f.size() * sizeof(std::uint32_t));
    return out;
}

IndexedMesh sorted_order(const IndexedMesh& given, const BuildOptions& build)
{
    const RXMesh m(given.soup(), build);
    return sorted_by_patch(m);
}

void refine_to(IndexedMesh& m, int& level, int want)
{
    while (level < want) {
        TriangleSoup s = generate::refine(m.soup());
        m.positions    = std::move(s.positions);
        m.faces        = std::move(s.faces);
        ++level;
    }
}

}  // namespace rxmesh::bench::query_compare
