// Two meshes queried at the same time from two host threads, each on its
// own stream: the per-kernel launch caches are per thread and the shared
// memory opt-in never lowers another thread's limit, so every result must
// equal the one computed alone (valences against the reference topology,
// Loop subdivision against a run on the default stream).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/algo/loop_subdivision.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"

namespace concurrency_test {

using namespace rxmesh;

//! Valence of every vertex by for_each<VV> on `stream`, `rounds` times; the
//! number of rounds whose sum differed from 2E.
int valence_rounds(RXMesh& mesh, std::size_t edges, int rounds, cudaStream_t stream)
{
    auto valence = mesh.add_vertex_attribute<float, 1>("valence", 0.f);
    int  wrong   = 0;
    for (int r = 0; r < rounds; ++r) {
        mesh.for_each<Op::VV>(
            [=] __device__(VertexId v, const RowView<VertexId>& vv) { valence(v) = float(vv.size()); },
            {}, false, stream);
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
        valence.to_host();
        double sum = 0;
        for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
            sum += valence.host(VertexId(v));
        wrong += sum != 2.0 * double(edges);
    }
    return wrong;
}

TEST(GpuConcurrency, TwoMeshesTwoThreadsTwoStreams)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup a = generate::torus(60, 40), b = generate::components(30, 2);
    const std::size_t  ea = reference::build_topology(std::uint32_t(a.positions.size()), a.faces).ev.size();
    const std::size_t  eb = reference::build_topology(std::uint32_t(b.positions.size()), b.faces).ev.size();
    RXMesh             ma(a), mb(b);  // built on one thread, queried from two
    const TriangleSoup alone = loop_subdivide(a, 3);
    cudaStream_t       sa, sb;
    RXMESH_CHECK_CUDA(cudaStreamCreate(&sa));
    RXMESH_CHECK_CUDA(cudaStreamCreate(&sb));
    int          wrong_a = -1, wrong_b = -1;
    TriangleSoup loop_b;
    // each thread adds an attribute to its own mesh and queries it
    std::thread  ta([&] { wrong_a = valence_rounds(ma, ea, 20, sa); });
    std::thread  tb([&] {
        wrong_b = valence_rounds(mb, eb, 20, sb);
        loop_b  = loop_subdivide(a, 3, LoopOptions{}, sb);
    });
    ta.join();
    tb.join();
    EXPECT_EQ(wrong_a, 0);
    EXPECT_EQ(wrong_b, 0);
    EXPECT_EQ(loop_b.faces, alone.faces);
    EXPECT_EQ(loop_b.positions, alone.positions);
    RXMESH_CHECK_CUDA(cudaStreamDestroy(sa));
    RXMESH_CHECK_CUDA(cudaStreamDestroy(sb));
}

}  // namespace concurrency_test
