// Vertex normals (Max 1999 weights): RXMesh's public-API version
// (RXMesh::accumulate<Op::FV>: shared-memory sums, no global atomics; block
// sizes 64/128/256), the previous hand-written patch kernel
// (baselines/patch_normals_kernel.cuh) and the paper's FV + global-atomics form,
// against a hardwired indexed-triangle kernel (one thread per face, global
// atomics, then a normalising pass) on the same and on the input order, and
// the serial CPU reference. All GPU versions are checked against the
// reference (max |n - n_ref| < 1e-5 on unit normals) before timing. Also the
// PDE form (one thread per vertex circulating its halfedges, no atomics) on
// the same patch order, the paper's GPU baseline.
//
// usage: bench_vertex_normals [--mesh FILE] [--min-faces N] [--runs R] [--capacity C]
//                             [--json OUT]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "patch_normals_kernel.cuh"
#include "pde.cuh"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

__global__ void hardwired_accumulate(const float* __restrict__ pos,
                                     const std::uint32_t* __restrict__ faces, std::uint32_t F,
                                     float* normals)
{
    RXMESH_FOR_EACH_ITEM(f, F)
    {
        std::uint32_t v[3];
        float         p[3][3];
        for (int k = 0; k < 3; ++k) {
            v[k] = faces[3 * f + k];
            for (int d = 0; d < 3; ++d)
                p[k][d] = pos[3 * std::uint64_t(v[k]) + d];
        }
        for (int k = 0; k < 3; ++k) {
            float n[3];
            store3(n, 0, max_weighted_normal(load3(p[k], 0), load3(p[(k + 1) % 3], 0), load3(p[(k + 2) % 3], 0)));
            for (int d = 0; d < 3; ++d)
                atomicAdd(normals + 3 * std::uint64_t(v[k]) + d, n[d]);
        }
    }
}

//! PDE: vertex v walks its outgoing halfedges h (v -> target[h]) with
//! h = next[twin(h)]; the face of h is (v, target[h], target[next[h]]).
__global__ void pde_vertex_normals(const float* __restrict__ pos,
                                   const std::uint32_t* __restrict__ target,
                                   const std::uint32_t* __restrict__ face,
                                   const std::uint32_t* __restrict__ next,
                                   const std::uint32_t* __restrict__ vertex_he, std::uint32_t V,
                                   float* normals)
{
    RXMESH_FOR_EACH_ITEM(v, V)
    {
        float n[3] = {0.f, 0.f, 0.f};
        const std::uint32_t h0 = vertex_he[v];
        if (h0 != baselines::PdeMesh::kInvalid) {
            float pv[3];
            for (int d = 0; d < 3; ++d)
                pv[d] = pos[3 * std::uint64_t(v) + d];
            std::uint32_t h = h0;
            do {
                if (face[h] != baselines::PdeMesh::kInvalid) {
                    const std::uint32_t a = target[h], b = target[next[h]];
                    float               pa[3], pb[3], c[3];
                    for (int d = 0; d < 3; ++d) {
                        pa[d] = pos[3 * std::uint64_t(a) + d];
                        pb[d] = pos[3 * std::uint64_t(b) + d];
                    }
                    store3(c, 0, max_weighted_normal(load3(pv, 0), load3(pa, 0), load3(pb, 0)));
                    for (int d = 0; d < 3; ++d)
                        n[d] += c[d];
                }
                h = next[h ^ 1u];
            } while (h != h0);
        }
        store3(n, 0, normalized_or_zero(load3(n, 0)));
        for (int d = 0; d < 3; ++d)
            normals[3 * std::uint64_t(v) + d] = n[d];
    }
}

//! The public accumulate without a staged input: each face reads its three
//! positions from global memory (to measure what staging them buys).
template <int MinBlocks>
void normals_unstaged(const RXMesh& mesh, const float* positions, float* normals)
{
    mesh.accumulate<Op::FV, float, 3, Plus, AccumulatePolicy<128, MinBlocks>>(
        [=] __device__(FaceId, const RowView<VertexId>& fv, const VertexSums<float, 3>& sums) {
            float p[3][3];
            for (int k = 0; k < 3; ++k)
                for (int d = 0; d < 3; ++d)
                    p[k][d] = __ldg(positions + 3 * std::uint64_t(fv[k].id()) + d);
            for (int k = 0; k < 3; ++k)
                if (sums.owns(k)) {
                    float n[3];
                    store3(n, 0, max_weighted_normal(load3(p[k], 0), load3(p[(k + 1) % 3], 0), load3(p[(k + 2) % 3], 0)));
                    sums.add(k, n);
                }
        },
        [=] __device__(VertexId v, const float(&sum)[3]) {
            float n[3] = {sum[0], sum[1], sum[2]};
            store3(n, 0, normalized_or_zero(load3(n, 0)));
            for (int d = 0; d < 3; ++d)
                normals[3 * std::uint64_t(v.id()) + d] = n[d];
        });
}

__global__ void normalize_all(float* normals, std::uint32_t V)
{
    RXMESH_FOR_EACH_ITEM(v, V) { store3(normals + 3 * v, 0, normalized_or_zero(load3(normals + 3 * v, 0))); }
}

//! A JSON number with 4 significant digits (std::to_string's fixed six
//! decimals would print a 1.8e-07 error as 0.000000).
std::string number(double x)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", x);
    return b;
}

double max_error(const std::vector<float>& n, const std::vector<Vec3f>& ref)
{
    double worst = 0;
    for (std::size_t v = 0; v < ref.size(); ++v)
        for (int k = 0; k < 3; ++k)
            worst = std::max(worst, std::abs(double(n[3 * v + k]) - ref[v][k]));
    return worst;
}

}  // namespace

int main(int argc, char** argv)
{
    bench::LargeMeshArgs in;
    std::string          json;
    CLI::App             cli{"bench_vertex_normals: vertex normals, RXMesh vs PDE and hardwired kernels",
                 "bench_vertex_normals"};
    bench::add_large_mesh(cli, in);
    bench::add_json(cli, json);
    if (const int rc = bench::parse(cli, argc, argv); rc >= 0) return rc;
    TriangleSoup soup = bench::large_mesh_soup(in);
    BuildOptions options;
    options.weld             = true;
    options.patcher.capacity = in.capacity;
    const RXMesh mesh(soup, options);
    const std::uint32_t V = mesh.num_vertices(), F = mesh.num_faces();

    // reference in the mesh's global numbering
    const auto            fpos = to_host(mesh.positions().view());
    const auto            ffac = mesh.faces().to_host();
    std::vector<Vec3f>    pos(V);
    std::vector<Triangle> faces(F);
    std::memcpy(pos.data(), fpos.data(), fpos.size() * sizeof(float));
    std::memcpy(faces.data(), ffac.data(), ffac.size() * sizeof(std::uint32_t));
    std::vector<Vec3f> ref;
    const double       cpu_ms =
        bench::cpu_median_ms([&] { ref = reference::vertex_normals(pos, faces); }, 1);

    // the same mesh in input order for the hardwired kernel (vertex ids of
    // the welded input: the first input copy of each vertex, ranked)
    std::vector<std::uint32_t> input_faces(3 * std::size_t(F));
    std::vector<float>         input_pos(3 * std::size_t(V));
    {
        const std::vector<std::uint32_t> rank = input_vertex_rank(input_vertex_order(mesh));
        // faces in input order are not kept by RXMesh: keep the patch order of
        // faces but input vertex ids, the usual "indexed triangles as loaded"
        for (std::size_t c = 0; c < input_faces.size(); ++c)
            input_faces[c] = rank[ffac[c]];
        for (std::uint32_t g = 0; g < V; ++g)
            for (int d = 0; d < 3; ++d)
                input_pos[3 * std::size_t(rank[g]) + d] = fpos[3 * std::size_t(g) + d];
    }
    auto d_in_pos   = DeviceBuffer<float>::from_host(input_pos);
    auto d_in_faces = DeviceBuffer<std::uint32_t>::from_host(input_faces);

    DeviceBuffer<float> normals(3 * std::size_t(V));
    const float*        P  = mesh.positions().device_data();
    const auto          mesh_faces = mesh.faces();  // the baselines' face array
    const std::uint32_t* FS = mesh_faces.data();
    const VertexView<float, 3> NV(normals.data(), V);
    const unsigned      grid = detail::flat_grid(F), vgrid = detail::flat_grid(V);

    // every RXMesh variant: the public vertex_normals at several block sizes and
    // minimum resident blocks per SM, the same math without staged positions,
    // and the previous hand-written kernel; each checked, then timed
    struct Variant
    {
        const char*           name;
        const char*           key;
        std::function<void()> run;
        double                ms = 0, error = 0;
    };
    std::vector<Variant> variants = {
        {"RXMesh vertex_normals (accumulate<FV>, staged positions), 128 threads, >= 16 blocks/SM",
         "rxmesh_patch", [&] { vertex_normals<128, 16>(mesh, mesh.positions(), NV); }},
        {"  same, 128 threads, no register cap", "accumulate_128",
         [&] { vertex_normals<128, 1>(mesh, mesh.positions(), NV); }},
        {"  same, 128 threads, >= 12 blocks/SM", "accumulate_128_12",
         [&] { vertex_normals<128, 12>(mesh, mesh.positions(), NV); }},
        {"  same, 64 threads", "accumulate_64", [&] { vertex_normals<64, 1>(mesh, mesh.positions(), NV); }},
        {"  same, 64 threads, >= 16 blocks/SM", "accumulate_64_16",
         [&] { vertex_normals<64, 16>(mesh, mesh.positions(), NV); }},
        {"  same, 64 threads, >= 24 blocks/SM", "accumulate_64_24",
         [&] { vertex_normals<64, 24>(mesh, mesh.positions(), NV); }},
        {"  same, 64 threads, >= 32 blocks/SM", "accumulate_64_32",
         [&] { vertex_normals<64, 32>(mesh, mesh.positions(), NV); }},
        {"  same, launch chosen by size (vertex_normals' default)", "accumulate_default",
         [&] { vertex_normals(mesh, mesh.positions(), NV); }},
        {"  same, 256 threads", "accumulate_256",
         [&] { vertex_normals<256, 1>(mesh, mesh.positions(), NV); }},
        {"  same, 512 threads, >= 4 blocks/SM", "accumulate_512_4",
         [&] { vertex_normals<512, 4>(mesh, mesh.positions(), NV); }},
        {"accumulate<FV>, positions read from global memory", "accumulate_unstaged",
         [&] { normals_unstaged<1>(mesh, P, normals.data()); }},
        {"accumulate<FV>, positions from global, >= 16 blocks/SM", "accumulate_unstaged_16",
         [&] { normals_unstaged<16>(mesh, P, normals.data()); }},
        {"previous hand kernel (staged patch, shared-memory sums)", "previous_hand_kernel",
         [&] { baselines::staged_patch_normals(mesh, P, normals.data()); }},
        {"staged positions, direct face rows, shared-memory atomic sums, 128 threads",
         "shared_sum_128", [&] { baselines::shared_sum_normals<128, 1>(mesh, P, normals.data()); }},
        {"  same, 128 threads, >= 16 blocks/SM", "shared_sum_128_16",
         [&] { baselines::shared_sum_normals<128, 16>(mesh, P, normals.data()); }},
        {"  same, 256 threads", "shared_sum_256",
         [&] { baselines::shared_sum_normals<256, 1>(mesh, P, normals.data()); }},
        {"  same, 256 threads, >= 8 blocks/SM", "shared_sum_256_8",
         [&] { baselines::shared_sum_normals<256, 8>(mesh, P, normals.data()); }},
        {"  same, 64 threads, >= 32 blocks/SM", "shared_sum_64_32",
         [&] { baselines::shared_sum_normals<64, 32>(mesh, P, normals.data()); }},
    };
    auto rx_atomic = [&] {
        normals.memset(0);
        vertex_normals_atomic(mesh, mesh.positions(), NV);
        normalize_all<<<vgrid, 256>>>(normals.data(), V);
    };
    auto hard = [&](const float* p, const std::uint32_t* f) {
        normals.memset(0);
        hardwired_accumulate<<<grid, 256>>>(p, f, F, normals.data());
        normalize_all<<<vgrid, 256>>>(normals.data(), V);
    };
    auto check = [&](const char* name) {
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const double e = max_error(normals.to_host(), ref);
        if (!(e < 1e-5)) {
            std::fprintf(stderr, "%s: max error %.3g against the CPU reference\n", name, e);
            std::exit(1);
        }
        return e;
    };
    for (Variant& v : variants) {
        normals.memset(0xFF);  // poison: every normal must be written
        v.run();
        v.error = check(v.name);
    }
    rx_atomic();
    const double e_at = check("RXMesh FV + atomics");
    hard(P, FS);
    const double e_hw = check("hardwired (patch order)");

    // PDE on the same (patch) order; it needs an edge-manifold, oriented mesh
    double t_pde = -1, e_pde = -1;
    try {
        const baselines::PdeMesh pde(faces, V);
        auto run_pde = [&] {
            pde_vertex_normals<<<vgrid, 256>>>(P, pde.d_target(), pde.d_face(), pde.d_next(),
                                               pde.d_vertex_he(), V, normals.data());
        };
        run_pde();
        e_pde = check("PDE circulation");
        t_pde = bench::gpu_median_ms(run_pde, 3, in.runs);
    } catch (const InvalidInputError& e) {
        std::fprintf(stderr, "PDE skipped: %s\n", e.what());
    }

    for (Variant& v : variants)
        v.ms = bench::gpu_median_ms(v.run, 3, in.runs);
    const double t_at  = bench::gpu_median_ms(rx_atomic, 3, in.runs);
    const double t_hw  = bench::gpu_median_ms([&] { hard(P, FS); }, 3, in.runs);
    const double t_hwi = bench::gpu_median_ms([&] { hard(d_in_pos.data(), d_in_faces.data()); }, 3,
                                              in.runs);

    // the public vertex_normals again once the mesh keeps each vertex's
    // faces (RXMesh::vertex_sources: accumulate skips its per-block
    // transpose); the lists' build timed once, its bytes counted
    GpuTimer build_timer;
    build_timer.start();
    mesh.vertex_sources(Op::FV);
    const float       kept_build_ms = build_timer.stop_ms();
    const std::size_t kept_bytes    = mesh.memory().vertex_sources;
    // the rows of a block per patch name their form (Patches, the default)
    // beside the row of a thread per vertex (Flat)
    constexpr AccumulateForm kPatches = AccumulateForm::Patches;
    std::vector<Variant> kept = {
        {"RXMesh vertex_normals, kept face lists, 128 threads, >= 16 blocks/SM", "kept_128_16",
         [&] { vertex_normals<128, 16, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, 128 threads, no register cap", "kept_128",
         [&] { vertex_normals<128, 1, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, 64 threads, >= 16 blocks/SM", "kept_64_16",
         [&] { vertex_normals<64, 16, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, 256 threads", "kept_256",
         [&] { vertex_normals<256, 1, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, 256 threads, >= 8 blocks/SM", "kept_256_8",
         [&] { vertex_normals<256, 8, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, 512 threads, >= 4 blocks/SM", "kept_512_4",
         [&] { vertex_normals<512, 4, kPatches>(mesh, mesh.positions(), NV); }},
        {"  same, a thread per vertex (flat form, 128 threads)", "kept_flat",
         [&] { vertex_normals<128, 16, AccumulateForm::Flat>(mesh, mesh.positions(), NV); }},
        {"  same, launch chosen by size (vertex_normals' default)", "kept_default",
         [&] { vertex_normals(mesh, mesh.positions(), NV); }},
    };
    for (Variant& v : kept) {
        normals.memset(0xFF);
        v.run();
        v.error = check(v.name);
        v.ms    = bench::gpu_median_ms(v.run, 3, in.runs);
    }

    std::printf("GPU: %s; mesh: %s refined to %u faces, %u vertices, %u patches\n\n",
                bench::gpu_name().c_str(), in.file.empty() ? "torus" : in.file.c_str(), F, V,
                mesh.num_patches());
    std::printf("| version | ms | vs hardwired (same order) | max error vs CPU |\n|---|---|---|---|\n");
    for (const Variant& v : variants)
        std::printf("| %s | %.3f | %.2fx | %.2g |\n", v.name, v.ms, t_hw / v.ms, v.error);
    for (const Variant& v : kept)
        std::printf("| %s | %.3f | %.2fx | %.2g |\n", v.name, v.ms, t_hw / v.ms, v.error);
    std::printf("| RXMesh FV + global atomics (paper) | %.3f | %.2fx | %.2g |\n", t_at, t_hw / t_at,
                e_at);
    std::printf("| hardwired indexed triangles, patch order | %.3f | 1.00x | %.2g |\n", t_hw, e_hw);
    std::printf("| hardwired indexed triangles, input vertex order | %.3f | %.2fx | - |\n", t_hwi,
                t_hw / t_hwi);
    if (t_pde > 0)
        std::printf("| PDE halfedge circulation, patch order | %.3f | %.2fx | %.2g |\n", t_pde,
                    t_hw / t_pde, e_pde);
    std::printf("| CPU reference (serial, double) | %.1f | %.4fx | 0 |\n", cpu_ms, t_hw / cpu_ms);
    std::printf("\nKept face lists: built once in %.3f ms, %zu bytes (%.2f per face).\n",
                kept_build_ms, kept_bytes, double(kept_bytes) / F);
    if (!json.empty()) {
        FILE* f = std::fopen(json.c_str(), "w");
        if (!f)
            throw Error("bench_vertex_normals: cannot write " + json);
        std::fprintf(f,
                     "{\n  \"gpu\": \"%s\",\n  \"mesh\": \"%s\",\n  \"faces\": %u,\n"
                     "  \"vertices\": %u,\n  \"patches\": %u,\n  \"runs\": %d,\n  \"ms\": {",
                     bench::gpu_name().c_str(), in.file.empty() ? "torus" : in.file.c_str(), F, V,
                     mesh.num_patches(), in.runs);
        for (const Variant& v : variants)
            std::fprintf(f, "\"%s\": %.4f, ", v.key, v.ms);
        for (const Variant& v : kept)
            std::fprintf(f, "\"%s\": %.4f, ", v.key, v.ms);
        std::fprintf(f, "\"kept_lists_build\": %.4f, ", kept_build_ms);
        std::fprintf(f,
                     "\"rxmesh_fv_atomics\": %.4f, \"hardwired_patch_order\": %.4f, "
                     "\"hardwired_input_order\": %.4f, \"pde\": %s, \"cpu_reference\": %.2f},\n"
                     "  \"kept_lists_bytes\": %zu,\n"
                     "  \"max_error\": {\"rxmesh_patch\": %.3g, \"rxmesh_fv_atomics\": %.3g, "
                     "\"hardwired_patch_order\": %.3g, \"pde\": %s}\n}\n",
                     t_at, t_hw, t_hwi, t_pde > 0 ? number(t_pde).c_str() : "null", cpu_ms,
                     kept_bytes, variants[0].error, e_at, e_hw, e_pde >= 0 ? number(e_pde).c_str() : "null");
        std::fclose(f);
    }
    return 0;
}
