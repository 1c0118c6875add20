// Downstream smoke test: the reference path on a generated torus, and the
// GPU pipeline when a device is present: the import must report genus 1, and
// an RXMesh queried with for_each and a device lambda must give every vertex
// its valence (their sum: twice the edges). Without a device it still
// compiles all of it, which is what a downstream build needs.
#include <cstdio>

#include "rxmesh/build/import.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"

namespace {

//! Sum of the vertex valences found by a VV query with a device lambda.
double valence_sum(const rxmesh::TriangleSoup& soup)
{
    rxmesh::RXMesh mesh(soup);
    auto           valence = mesh.add_vertex_attribute<float, 1>("valence", 0.f);
    mesh.for_each<rxmesh::Op::VV>(
        [=] __device__(rxmesh::VertexId v, const rxmesh::RowView<rxmesh::VertexId>& vv) {
            valence(v) = float(vv.size());
        });
    valence.to_host();
    double sum = 0;
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
        sum += valence.host(rxmesh::VertexId(v));
    return sum;
}

}  // namespace

int main()
{
    const rxmesh::TriangleSoup torus = rxmesh::generate::torus(16, 8);
    const auto topo = rxmesh::reference::build_topology(
        static_cast<std::uint32_t>(torus.positions.size()), torus.faces);
    const auto stats = rxmesh::reference::compute_stats(topo, torus.faces);
    if (stats.euler != 0)
        return 1;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) {
        const auto mesh = rxmesh::import_mesh(torus);
        if (rxmesh::compute_stats(mesh.topology, mesh.faces.data()) != stats)
            return 1;
        if (valence_sum(torus) != 2.0 * double(topo.ev.size()))
            return 1;
        std::printf("consumer: for_each over %zu edges ok\n", topo.ev.size());
    }
    std::printf("consumer ok: euler %lld\n", static_cast<long long>(stats.euler));
    return 0;
}
