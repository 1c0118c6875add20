// A first speed look at the eight queries: ms per op (CUDA events, median of
// many runs after warm-up) and effective bandwidth on a large mesh, against
// the measured device-to-device copy bandwidth.
//
// Each run's lambda reads its whole output and writes one 32-bit checksum per
// source element, so nothing is optimised away. Bytes counted per op: the
// patch-store arrays the op must read (M_EV and/or M_FE of every patch, the
// offsets) plus the checksums written. The full comparison with baselines is
// a later benchmark.
//
// usage: bench_queries [--mesh FILE] [--min-faces N] [--runs R] [--capacity C]
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

template <Op op>
double time_op(const RXMesh& mesh, std::uint32_t* out, int runs, bool oriented = false)
{
    using S = typename OpTraits<op>::Source;
    using O = typename OpTraits<op>::Output;
    return bench::gpu_median_ms(
        [&] {
            mesh.for_each<op>(
                [=] __device__(S s, const RowView<O>& it) {
                    std::uint32_t sum = 0;
                    for (std::uint32_t i = 0; i < it.size(); ++i)
                        sum += it[i].id();
                    out[s.id()] = sum;
                },
                AllActive{}, oriented);
        },
        3, runs);
}

}  // namespace

int main(int argc, char** argv)
{
    bench::LargeMeshArgs in;
    CLI::App             cli{"bench_queries: RXMesh's queries against the device copy bandwidth",
                 "bench_queries"};
    bench::add_large_mesh(cli, in);
    if (const int rc = bench::parse(cli, argc, argv); rc >= 0) return rc;
    TriangleSoup soup = bench::large_mesh_soup(in);
    BuildOptions options;
    options.patcher.capacity = in.capacity;
    const RXMesh mesh(soup, options);
    const double copy = bench::measured_copy_gbps();

    const auto& st = mesh.store();
    const double ev_bytes = double(st.m_ev.bytes()) + st.edge_offsets.bytes() +
                            st.ribbon_e_offsets.bytes() + st.vertex_offsets.bytes() +
                            st.ribbon_v_offsets.bytes();
    const double fe_bytes = double(st.m_fe.bytes()) + st.face_offsets.bytes() +
                            st.ribbon_f_offsets.bytes() + st.edge_offsets.bytes() +
                            st.ribbon_e_offsets.bytes();
    const double V = mesh.num_vertices(), E = mesh.num_edges(), F = mesh.num_faces();

    DeviceBuffer<std::uint32_t> out(std::max({mesh.num_vertices(), mesh.num_edges(),
                                              mesh.num_faces()}));
    std::printf("GPU: %s, device copy %.0f GB/s (read + write)\n", bench::gpu_name().c_str(),
                copy);
    std::printf("mesh: %s, %u vertices, %u edges, %u faces, %u patches (capacity %u), store "
                "%.1f bytes/face\n\n",
                in.file.empty() ? "generated torus" : in.file.c_str(), mesh.num_vertices(),
                mesh.num_edges(), mesh.num_faces(), mesh.num_patches(), in.capacity,
                mesh.stats().store_bytes_per_face);
    std::printf("| op | ms | Melements/s | effective GB/s | %% of copy |\n|---|---|---|---|---|\n");
    auto row = [&](const char* name, double ms, double sources, double bytes) {
        const double gbps = (bytes + 4.0 * sources) / (ms * 1e6);
        std::printf("| %s | %.3f | %.0f | %.0f | %.1f%% |\n", name, ms, sources / (ms * 1e3), gbps,
                    100.0 * gbps / copy);
    };
    std::uint32_t* o = out.data();
    row("VV", time_op<Op::VV>(mesh, o, in.runs), V, ev_bytes);
    row("VV oriented", time_op<Op::VV>(mesh, o, in.runs, true), V, ev_bytes + fe_bytes);
    row("VE", time_op<Op::VE>(mesh, o, in.runs), V, ev_bytes);
    row("VF", time_op<Op::VF>(mesh, o, in.runs), V, ev_bytes + fe_bytes);
    row("EV", time_op<Op::EV>(mesh, o, in.runs), E, ev_bytes);
    row("EF", time_op<Op::EF>(mesh, o, in.runs), E, fe_bytes);
    row("FV", time_op<Op::FV>(mesh, o, in.runs), F, ev_bytes + fe_bytes);
    row("FE", time_op<Op::FE>(mesh, o, in.runs), F, fe_bytes);
    row("FF", time_op<Op::FF>(mesh, o, in.runs), F, fe_bytes);
    return 0;
}
