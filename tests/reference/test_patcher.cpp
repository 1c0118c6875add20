// The CPU reference of the curve patcher (the GPU's oracle) checked on its
// own: a partition of the faces into connected, non-empty patches of at most
// `capacity` faces, one or more per component, about one per seed spacing.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "mesh_families.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/patcher.h"
#include "rxmesh/reference/topology.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
namespace g = rxmesh::generate;

std::vector<float> flat_positions(const TriangleSoup& soup)
{
    std::vector<float> p;
    for (const auto& v : soup.positions) p.insert(p.end(), v.begin(), v.end());
    return p;
}

//! Union-find over faces joined through shared edges inside one patch.
std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

void expect_valid_partition(const TriangleSoup& soup, const rxmesh::reference::CurvePatches& r,
                            std::uint32_t capacity, const std::string& name)
{
    const auto& faces = soup.faces;
    ASSERT_EQ(r.face_patch.size(), faces.size()) << name;
    std::vector<std::uint32_t> size(r.num_patches, 0);
    for (std::uint32_t p : r.face_patch) {
        ASSERT_LT(p, r.num_patches) << name;
        ++size[p];
    }
    for (std::uint32_t p = 0; p < r.num_patches; ++p) {
        EXPECT_GT(size[p], 0u) << name << " patch " << p;
        EXPECT_LE(size[p], capacity) << name << " patch " << p;
    }
    EXPECT_EQ(*std::max_element(size.begin(), size.end()), r.max_patch_faces) << name;
    // every patch edge-connected: one root per patch
    const auto ff =
        rxmesh::reference::build_topology(static_cast<std::uint32_t>(soup.positions.size()), faces)
            .ff;
    std::vector<std::uint32_t> parent(faces.size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (std::uint32_t f = 0; f < faces.size(); ++f)
        for (std::uint32_t j = ff.offsets[f]; j < ff.offsets[f + 1]; ++j)
            if (r.face_patch[f] == r.face_patch[ff.indices[j]])
                parent[find(parent, f)] = find(parent, ff.indices[j]);
    std::vector<std::uint32_t> roots(r.num_patches, ~0u);
    for (std::uint32_t f = 0; f < faces.size(); ++f) {
        const std::uint32_t root = find(parent, f);
        std::uint32_t&      seen = roots[r.face_patch[f]];
        if (seen == ~0u) seen = root;
        EXPECT_EQ(seen, root) << name << ": patch " << r.face_patch[f] << " is disconnected";
    }
}

}  // namespace

TEST(ReferencePatcher, PartitionsIntoConnectedPatchesWithinCapacity)
{
    using namespace rxmesh::test;
    // the GPU patcher's test covers these meshes too (tests/patch/test_patcher.cu)
    const NamedMeshes meshes = joined({manifold_families(5, {96, 48}, {80, 50}, {64, 30}, 300),
                                       irregular_families({4}, 700, 2000)});
    for (const auto& [name, soup] : meshes)
        for (std::uint32_t capacity : {1u, 64u, 256u, 512u, 2048u}) {
            rxmesh::PatcherOptions options;
            options.capacity = capacity;
            const auto r =
                rxmesh::reference::curve_patches(flat_positions(soup), soup.faces, options);
            expect_valid_partition(soup, r, capacity,
                                   name + " capacity " + std::to_string(capacity));
        }
}

TEST(ReferencePatcher, ComponentsGetTheirOwnPatches)
{
    const TriangleSoup     soup = g::isolated_faces(700);
    rxmesh::PatcherOptions options;
    const auto r = rxmesh::reference::curve_patches(flat_positions(soup), soup.faces, options);
    EXPECT_EQ(r.num_components, 700u);
    EXPECT_EQ(r.num_patches, 700u);
    const TriangleSoup many = g::components(300, 1);
    const auto m = rxmesh::reference::curve_patches(flat_positions(many), many.faces, options);
    EXPECT_EQ(m.num_components, 300u);
    EXPECT_EQ(m.num_patches, 300u);  // each component (80 faces) fits one patch
}

TEST(ReferencePatcher, PatchesFillTheCapacity)
{
    const TriangleSoup     soup = g::torus(256, 128);  // 65536 faces
    rxmesh::PatcherOptions options;                    // capacity 512, seeds every 409
    const auto r = rxmesh::reference::curve_patches(flat_positions(soup), soup.faces, options);
    // about one patch per seed spacing: patches neither tiny nor split to pieces
    EXPECT_GE(r.num_patches, 65536u / 512);
    EXPECT_LE(r.num_patches, 65536u / 409 + 65536u / 409 / 4);
    EXPECT_EQ(r.num_components, 1u);
}
