// The skeleton of an app that makes a new mesh through DynamicMesh
// (rxmesh-remesh, rxmesh-simplify): what such an app uses of apps/common
// (app.h, dynamic_app.h, new_mesh_run.h: its runs, new_mesh_summary.h: its
// lines and reports, format.h) and of the library (the quality figures, the
// generators, the serial quality and mean edge length), and the end of its
// runs, the same for each: -o, the summary, --check's lines, the report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "app.h"
#include "dynamic_app.h"
#include "format.h"
#include "json.h"
#include "new_mesh_run.h"
#include "new_mesh_summary.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"

namespace rxmesh::app {

//! The end of a GPU run (NewMeshRun), the same for every such app: -o, the
//! app's summary lines (`print()`), the distance, times (the algorithm's as
//! `name`) and memory, the --check lines of `check`, and the report
//! (new_mesh_report with `params` and the result's sizes, then the check).
//! Returns the exit status: 3 when a step stopped at its pass bound.
template <typename Run, typename Print>
int finish_gpu_run(Session& s, const Run& run, const char* name, const OracleCheck& check,
                   const Print& print, const Json& params, double vertices, double faces)
{
    stage_new_mesh(s, run.result);
    print();
    print_gpu_end(s, run, name);
    if (s.check()) check.print(run.state, run.distance, s.input().soup.faces.size());
    Json j = new_mesh_report(s, run, name, params, vertices, faces);
    if (s.check()) j.obj("check", check.json(run.input_state, run.state));
    s.write_report(j);
    return run.report.hit_pass_bound ? 3 : 0;
}

//! The end of a --device cpu run (CpuNewMeshRun), as finish_gpu_run's: -o,
//! `print()`, the distance and times, and the report (cpu_new_mesh_report
//! with `params`, the reference's figures `result`, `quality` and the
//! result's sizes). Returns 0.
template <typename Run, typename Print>
int finish_cpu_run(Session& s, const Run& run, const char* name, const Print& print,
                   const Json& params, const Json& result, const Json& quality,
                   std::size_t vertices, std::size_t faces)
{
    stage_new_mesh(s, run.result);
    print();
    print_cpu_end(s, run, name);
    s.write_report(cpu_new_mesh_report(s, run, name, params, result, quality, vertices, faces));
    return 0;
}

}  // namespace rxmesh::app
