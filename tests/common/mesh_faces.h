// How the GPU tests build an RXMesh (welded, or each mesh of a list in
// patches of several sizes), and what a built one holds,
// on the host in its global numbering: its faces and positions (what the GPU
// tests hand to the CPU reference), sources spread over its vertices, and the
// patch owning each vertex.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mesh_families.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::test {

//! An RXMesh of `soup` with its coincident vertices welded, in patches of
//! at most `capacity` faces.
inline RXMesh welded_mesh(const TriangleSoup& soup,
                          std::uint32_t       capacity = PatcherOptions{}.capacity)
{
    BuildOptions options;
    options.weld             = true;
    options.patcher.capacity = capacity;
    return RXMesh(soup, options);
}

//! Calls check(mesh) for each of `meshes` built (not welded) in patches of
//! at most each of `capacities` faces, under a trace of its name and capacity.
template <typename Check>
void for_each_built_mesh(const NamedMeshes& meshes, const std::vector<std::uint32_t>& capacities,
                         Check&& check)
{
    for (const std::uint32_t capacity : capacities)
        for (const auto& [name, soup] : meshes) {
            SCOPED_TRACE(name + " capacity " + std::to_string(capacity));
            BuildOptions options;
            options.patcher.capacity = capacity;
            check(RXMesh(soup, options));
        }
}

inline std::vector<Triangle> faces_of(const RXMesh& mesh)
{
    std::vector<Triangle> faces(mesh.num_faces());
    const auto            flat = mesh.faces().to_host();
    std::memcpy(faces.data(), flat.data(), flat.size() * sizeof(std::uint32_t));
    return faces;
}

//! The positions in the global numbering (what the GPU tests hand to the
//! CPU reference with faces_of).
inline std::vector<Vec3f> positions_of(const RXMesh& mesh)
{
    const auto         p = to_host(mesh.positions().view());
    std::vector<Vec3f> out(mesh.num_vertices());
    std::memcpy(out.data(), p.data(), p.size() * sizeof(float));
    return out;
}

//! `count` sources spread over the global ids: the first, and count - 1 more.
inline std::vector<std::uint32_t> spread_sources(std::uint32_t num_vertices, std::uint32_t count)
{
    std::vector<std::uint32_t> s;
    for (std::uint32_t i = 0; i < count; ++i)
        s.push_back(std::uint32_t((std::uint64_t(num_vertices) * i) / count));
    return s;
}

//! The valence of each vertex of an icosphere: 12 of valence 5, all others 6.
inline void expect_icosphere_valences(const std::vector<std::uint32_t>& valence)
{
    EXPECT_EQ(std::count(valence.begin(), valence.end(), 5u), 12);
    EXPECT_EQ(std::count(valence.begin(), valence.end(), 6u), long(valence.size()) - 12);
}

//! The patch that owns each vertex (the store's owned ranges).
inline std::vector<std::uint32_t> owner_of_vertices(const RXMesh& mesh)
{
    const auto                 offsets = mesh.store().vertex_offsets.to_host();
    std::vector<std::uint32_t> owner(mesh.num_vertices());
    for (std::uint32_t p = 0; p + 1 < offsets.size(); ++p)
        for (std::uint32_t v = offsets[p]; v < offsets[p + 1]; ++v) owner[v] = p;
    return owner;
}

}  // namespace rxmesh::test
