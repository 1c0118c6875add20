// The options and report of the conjugate gradient solvers (solver/cg.cuh
// and its variants), apart from the kernels so that host code (an app's
// CPU path, a report) can name them.
#pragma once

namespace rxmesh {

struct CgOptions
{
    int    max_iterations = 1000;
    double tolerance      = 1e-5;  // stop when |r| <= tolerance |r0|
};

struct CgReport
{
    int    iterations       = 0;
    double initial_residual = 0;  // |r0|
    double final_residual   = 0;  // |r| of the recurrence at the end
    bool   converged        = false;
};

}  // namespace rxmesh
