// Downstream smoke test: the reference path on a generated torus, and the
// GPU pipeline when a device is present; both must report genus 1.
#include <cstdio>

#include "rxmesh/build/import.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"

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
    }
    std::printf("consumer ok: euler %lld\n", static_cast<long long>(stats.euler));
    return 0;
}
