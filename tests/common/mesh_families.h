// The generated mesh families the tests share, at the sizes each test
// picks: closed, open and many components (manifold_families),
// non-manifold, isolated faces and high valence (irregular_families), the
// faces an import repairs (repair_families), and all of them with noise for
// the geometry algorithms (noisy_families). Host code: the CPU and the GPU
// tests use them alike.
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <vector>

#include "rxmesh/io/generate.h"

namespace rxmesh::test {

//! A mesh with the name its failures are reported under.
struct NamedMesh
{
    std::string  name;
    TriangleSoup soup;
};
using NamedMeshes = std::vector<NamedMesh>;
//! The two counts of a torus, a grid or a cylinder.
using Size2 = std::array<int, 2>;

//! Closed (an icosphere of `level` subdivisions, a torus), open (a grid, a
//! cylinder with two boundary loops) and `components` separate icospheres.
inline NamedMeshes manifold_families(int level, Size2 torus, Size2 grid, Size2 cylinder,
                                     int components)
{
    namespace g = generate;
    return {{"icosphere" + std::to_string(level), g::icosphere(level)},
            {"torus", g::torus(torus[0], torus[1])},
            {"grid", g::grid(grid[0], grid[1])},
            {"cylinder", g::cylinder(cylinder[0], cylinder[1])},
            {"components", g::components(components, 1)}};
}

//! A bowtie (a non-manifold vertex), a fin of each count in `fins` (a
//! non-manifold edge of that many faces), `isolated` faces sharing no
//! vertex, and a fan of `fan` faces around one vertex (high valence).
inline NamedMeshes irregular_families(const std::vector<int>& fins, int isolated, int fan)
{
    namespace g = generate;
    NamedMeshes meshes = {{"bowtie", g::bowtie()}};
    for (const int k : fins) meshes.push_back({"fin" + std::to_string(k), g::fin(k)});
    meshes.push_back({"isolated", g::isolated_faces(isolated)});
    meshes.push_back({"fan" + std::to_string(fan), g::fan(fan)});
    return meshes;
}

//! What an import repairs: degenerate faces, and a grid of `quad_grid`
//! quads whose vertices are duplicated.
inline NamedMeshes repair_families(int quad_grid)
{
    namespace g = generate;
    return {{"degenerate", g::with_degenerate_faces()},
            {"quad_grid", g::duplicated_quad_grid(quad_grid)}};
}

//! What the geometry algorithms (geodesic distance, MCF) are checked on,
//! with noise where a regular mesh would hide an error: a closed icosphere
//! of `level` and torus, an open grid and cylinder, separate components, a
//! fin (non-manifold edge), a bowtie (non-manifold vertex), isolated faces
//! and a fan of high valence.
inline NamedMeshes noisy_families(int level, Size2 torus, Size2 grid, Size2 cylinder)
{
    namespace g = generate;
    return {{"noisy icosphere", g::noisy(g::icosphere(level), 0.2f, 7)},
            {"noisy torus", g::noisy(g::torus(torus[0], torus[1]), 0.2f, 3)},
            {"open grid", g::noisy(g::grid(grid[0], grid[1]), 0.1f, 5)},
            {"cylinder", g::cylinder(cylinder[0], cylinder[1])},
            {"components", g::noisy(g::components(3, 2), 0.1f, 9)},
            {"fin (non-manifold edge)", g::fin(4)},
            {"bowtie (non-manifold vertex)", g::bowtie()},
            {"isolated faces", g::isolated_faces(5)},
            {"high valence fan", g::fan(200)}};
}

//! The lists one after the other.
inline NamedMeshes joined(std::initializer_list<NamedMeshes> lists)
{
    NamedMeshes all;
    for (const NamedMeshes& list : lists) all.insert(all.end(), list.begin(), list.end());
    return all;
}

}  // namespace rxmesh::test
