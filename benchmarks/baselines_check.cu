// Self-check of the GPU query baselines (PdeMesh, CsrMesh): on generated
// manifold meshes, every one of the eight queries of both systems is run on
// the GPU and compared row by row with reference::build_topology (rows as
// sets, edges by vertex pair, FV as a cyclic sequence). Also checks that
// PdeMesh rejects a non-manifold edge (fin(3)) and inconsistent orientation,
// and handles bowtie() (edge-manifold, non-manifold vertex).
//
// Prints one line per (mesh, system, op); exit status 1 on any mismatch, 77
// (ctest's skip) when no CUDA device is usable, unless RXMESH_REQUIRE_GPU=1.
// usage: bench_baselines_check
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "csr.cuh"
#include "pde.cuh"
#include "query_workload.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"

namespace {

using namespace rxmesh;
using namespace rxmesh::baselines;

int g_failures = 0;

template <typename Mesh>
void check_system(const char* mesh_name, const char* system, const Mesh& mesh,
                  const reference::Topology& ref)
{
    const EdgeVertices edges = mesh.edge_vertices();
    for (const Op op : kAllOps) {
        std::string why;
        bool        ok = false;
        double      ms = 0;
        std::size_t nvalues = 0;
        try {
            QueryOutput out = mesh.allocate(op);
            mesh.run(op, out);
            RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
            ok      = verify_against_reference(out, op, ref, edges, why);
            nvalues = out.values.size();
            ms      = time_query([&] { mesh.run(op, out); }, 1, 5);
        } catch (const std::exception& e) {
            why = std::string("exception: ") + e.what();
        }
        std::printf("%-18s %-4s %s  %-4s rows %9u values %10zu  %8.4f ms  %s%s\n", mesh_name,
                    system, to_string(op), ok ? "OK" : "FAIL", mesh.num_sources(op), nvalues,
                    ms, ok ? "" : "  ", why.c_str());
        if (!ok)
            ++g_failures;
    }
}

void check_mesh(const char* name, const TriangleSoup& soup)
{
    const auto nv = static_cast<std::uint32_t>(soup.positions.size());
    try {
        const reference::Topology ref = reference::build_topology(nv, soup.faces);
        {
            const PdeMesh pde(soup.faces, nv);
            std::printf("%-18s PDE  V %u E %u F %u  %zu bytes (%.1f B/face)\n", name,
                        pde.num_vertices(), pde.num_edges(), pde.num_faces(), pde.bytes(),
                        double(pde.bytes()) / std::max<std::size_t>(1, pde.num_faces()));
            check_system(name, "PDE", pde, ref);
        }
        {
            const CsrMesh csr(soup.faces, nv);
            std::printf("%-18s CSR  V %u E %u F %u  %zu bytes (%.1f B/face)\n", name,
                        csr.num_vertices(), csr.num_edges(), csr.num_faces(), csr.bytes(),
                        double(csr.bytes()) / std::max<std::size_t>(1, csr.num_faces()));
            check_system(name, "CSR", csr, ref);
        }
    } catch (const std::exception& e) {
        std::printf("%-18s FAIL  exception: %s\n", name, e.what());
        ++g_failures;
    }
}

void expect_pde_rejects(const char* name, const TriangleSoup& soup)
{
    try {
        const PdeMesh pde(soup.faces, static_cast<std::uint32_t>(soup.positions.size()));
        std::printf("%-18s PDE  reject  FAIL  no InvalidInputError thrown\n", name);
        ++g_failures;
    } catch (const InvalidInputError& e) {
        std::printf("%-18s PDE  reject  OK    InvalidInputError: %s\n", name, e.what());
    } catch (const std::exception& e) {
        std::printf("%-18s PDE  reject  FAIL  wrong exception: %s\n", name, e.what());
        ++g_failures;
    }
}

}  // namespace

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        const char* require = std::getenv("RXMESH_REQUIRE_GPU");
        const bool  must    = require != nullptr && std::string(require) == "1";
        std::printf("no CUDA device: %s\n", must ? "FAILED (RXMESH_REQUIRE_GPU=1)" : "skipped");
        return must ? 1 : 77;
    }
    try {
        check_mesh("icosphere(4)", generate::icosphere(4));
        check_mesh("torus(64,40)", generate::torus(64, 40));
        check_mesh("grid(50,30)", generate::grid(50, 30));
        check_mesh("cylinder(32,16)", generate::cylinder(32, 16));
        check_mesh("refine(torus(20,9))", generate::refine(generate::torus(20, 9)));
        check_mesh("bowtie()", generate::bowtie());
        check_mesh("fan(7)", generate::fan(7));
        check_mesh("components(3,1)", generate::components(3, 1));

        expect_pde_rejects("fin(3)", generate::fin(3));
        TriangleSoup flipped = generate::icosphere(1);
        std::swap(flipped.faces[5][1], flipped.faces[5][2]);
        expect_pde_rejects("icosphere(1)+flip", flipped);
    } catch (const std::exception& e) {
        std::printf("FAIL  exception: %s\n", e.what());
        return 1;
    }
    std::printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "PASSED", g_failures);
    return g_failures ? 1 : 0;
}
