// What the changing-topology algorithms (remeshing, simplification) must
// keep of their input, and that they do not depend on the launch's block
// size: the same input at each size gives the same mesh, bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh::test {

//! What a run must keep of its input, read before it: a valid input stays
//! valid with its Euler characteristic, a manifold one manifold.
struct KeptTopology
{
    bool         valid;  // some real meshes repeat a face
    bool         manifold;
    std::int64_t euler;

    explicit KeptTopology(DynamicMesh& mesh)
        : valid(mesh.validate().ok()), manifold(mesh.is_manifold()),
          euler(mesh.euler_characteristic())
    {
    }

    //! After the run: no bad face, and what the input had, kept.
    void expect_kept(DynamicMesh& mesh) const
    {
        const DynamicValidation v = mesh.validate();
        EXPECT_EQ(v.bad_faces, 0u) << v.first;
        if (valid) {
            EXPECT_TRUE(v.ok()) << v.first;
            EXPECT_EQ(mesh.euler_characteristic(), euler);
        }
        if (manifold) EXPECT_TRUE(mesh.is_manifold());
    }
};

//! run(mesh) on a DynamicMesh of `soup` at each of `block_threads` gives
//! the faces and positions it gives at the first.
template <typename Run>
void expect_same_at_every_block_size(const TriangleSoup&               soup,
                                     const std::vector<std::uint32_t>& block_threads, Run&& run)
{
    TriangleSoup first;
    for (std::size_t i = 0; i < block_threads.size(); ++i) {
        DynamicOptions o;
        o.block_threads = block_threads[i];
        DynamicMesh mesh(soup, o);
        run(mesh);
        const TriangleSoup out = mesh.to_host();
        if (i == 0) {
            first = out;
            continue;
        }
        EXPECT_EQ(out.faces, first.faces) << block_threads[i];
        EXPECT_EQ(out.positions, first.positions) << block_threads[i];
    }
}

}  // namespace rxmesh::test
