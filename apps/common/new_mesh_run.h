// The run of an app that makes a new mesh through DynamicMesh (rxmesh-remesh,
// rxmesh-simplify), on the GPU and with --device cpu, the same steps in the
// same order for every such app so that their times measure the same thing:
// on the GPU the input uploaded (its state kept for --check), --warmup's
// untimed runs on copies of it, the timed run (to cudaDeviceSynchronize),
// then the device memory, the result's quality and state, the compact
// result's distance to the input and its download; on the CPU the serial
// reference timed, then its result's quality and distance. The app gives
// only its algorithm (a callable) and its quality figures.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

#include "app.h"
#include "dynamic_app.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/reference/isotropic_remesh.h"

namespace rxmesh::app {

//! A timed GPU run over DynamicMesh (upload, timed_run): the algorithm's
//! report (with ms), the times, the device memory and the result.
template <typename Report>
struct DynamicRun
{
    Report        report;
    double        upload_ms = 0, wall_ms = 0;
    DynamicMemory memory;
    TriangleSoup  result;
};

//! A new-mesh app's GPU run's results; Report is the algorithm's (with ms
//! and to_json, as new_mesh_report reads them); the result compact, in slot
//! order.
template <typename Report>
struct NewMeshRun : DynamicRun<Report>
{
    SurfaceQuality  quality;
    DistanceToInput distance;
    MeshState       input_state, state;  // with --check only
};

//! What is the app's own in a GPU run.
template <typename Options, typename Report>
struct NewMeshAlgorithm
{
    //! The algorithm on a mesh: the timed run's and each warm-up copy's.
    std::function<Report(DynamicMesh&, const Options&)> run;
    //! The result's quality figures (surface_quality with the app's L).
    std::function<SurfaceQuality(DynamicMesh&, const Report&)> quality;
    //! Sets options from the uploaded input before the warm-up (remesh's L,
    //! measured on the GPU); empty: nothing to set.
    std::function<void(DynamicMesh& input, Options&)> prepare = nullptr;
};

//! `in` uploaded as a DynamicMesh; the upload's wall time into `ms`.
inline DynamicMesh upload(const TriangleSoup& in, double& ms)
{
    const auto  start = std::chrono::steady_clock::now();
    DynamicMesh mesh(in);
    ms = ms_since(start);
    return mesh;
}

//! `algorithm(mesh)` timed to cudaDeviceSynchronize (the wall time into
//! `wall_ms`): the timed run of every app over DynamicMesh. Returns its report.
template <typename Algorithm>
auto timed_run(DynamicMesh& mesh, const Algorithm& algorithm, double& wall_ms)
{
    const auto start  = std::chrono::steady_clock::now();
    auto       report = algorithm(mesh);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    wall_ms = ms_since(start);
    return report;
}

//! --warmup's untimed runs, each on its own copy of the input; their
//! progress reads as the warm-up's (done < 0: progress_line).
template <typename Options, typename Report>
void warm_up(const TriangleSoup& in, const Options& options,
             const NewMeshAlgorithm<Options, Report>& algorithm, std::uint32_t runs)
{
    Options untimed = options;
    if (options.progress) untimed.progress = [&options](double) { options.progress(-1); };
    for (std::uint32_t i = 0; i < runs; ++i) {
        DynamicMesh copy(in);
        algorithm.run(copy, untimed);
    }
}

//! The algorithm, once (after `warmup` untimed runs), then its quality and
//! distance to the input, and the mesh downloaded; `options` as
//! algorithm.prepare left them.
template <typename Options, typename Report>
NewMeshRun<Report> run_new_mesh(const TriangleSoup& in, Options& options,
                                const NewMeshAlgorithm<Options, Report>& algorithm, bool check,
                                std::uint32_t warmup)
{
    NewMeshRun<Report> run;
    DynamicMesh        mesh = upload(in, run.upload_ms);
    if (check) run.input_state = state_of(mesh);
    if (algorithm.prepare) algorithm.prepare(mesh, options);
    warm_up(in, options, algorithm, warmup);
    run.report = timed_run(
        mesh, [&](DynamicMesh& m) { return algorithm.run(m, options); }, run.wall_ms);
    run.memory = mesh.memory();
    run.quality = algorithm.quality(mesh, run.report);
    if (check) run.state = state_of(mesh);
    const CompactMesh out = mesh.compact();
    run.distance = distance_to_input(out, InputSurface(in), bounding_box_diagonal(in.positions));
    run.result   = out.to_host();
    return run;
}

//! A --device cpu run's results; Report is the serial reference's.
template <typename Report>
struct CpuNewMeshRun
{
    Report                 report;
    double                 ms = 0;
    reference::MeshQuality quality;
    DistanceToInput        distance;
    TriangleSoup           result;  // compact: the surviving input vertices in input order first
};

//! The serial reference `algorithm` (TriangleSoup(Report*)) timed, then the
//! result's quality figures (`quality`: reference::MeshQuality(result)) and
//! distance to the input.
template <typename Report, typename Algorithm, typename Quality>
CpuNewMeshRun<Report> run_new_mesh_on_cpu(const TriangleSoup& in, const Algorithm& algorithm,
                                          const Quality& quality)
{
    CpuNewMeshRun<Report> run;
    const auto            start = std::chrono::steady_clock::now();
    run.result                  = algorithm(&run.report);
    run.ms                      = ms_since(start);
    run.quality                 = quality(run.result);
    run.distance                = distance_on_cpu(run.result, in);
    return run;
}

}  // namespace rxmesh::app
