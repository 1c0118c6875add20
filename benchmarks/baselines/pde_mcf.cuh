// The same matrix-free MCF CG as RXMesh's (solver/cg.cuh, algo/mcf.cuh) over
// the PDE halfedge baseline (pde.cuh): weights per PDE edge and mixed areas
// per vertex computed once by circulation, and a product kernel of one
// thread per vertex that circulates its halfedges, with the same fusions as
// RXMesh's (the direction update d = r + beta d_old computed for the vertex
// and its neighbours while reading them, d.q reduced in the same pass) and
// the same vector kernels. BlockThreads is swept by the bench.
#pragma once

#include <cstdint>

#include "pde.cuh"
#include "rxmesh/solver/cg.cuh"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh::baselines {

struct PdeMcfSystem
{
    DeviceBuffer<float> w;  // per PDE edge
    DeviceBuffer<float> a;  // per vertex
};

//! Weights and areas from the positions (3 floats per vertex).
PdeMcfSystem pde_mcf_system(const PdeMesh& pde, const float* positions, cudaStream_t stream = 0);

//! r = -dt L x (the residual of the initial guess x).
void pde_mcf_initial_residual(const PdeMesh& pde, const PdeMcfSystem& s, float dt, const float* x,
                              float* r, cudaStream_t stream = 0);

//! CG as cg_solve, with the PDE product; block size 64, 128 or 256.
CgReport pde_mcf_cg(const PdeMesh& pde, const PdeMcfSystem& s, float dt, float* x, float* r,
                    const CgOptions& options, int block_threads, cudaStream_t stream = 0);

//! The single-pass CG of rxmesh/solver/cg_single_pass.cuh with the PDE
//! product (its pass at each vertex forms r and d at the vertex and at its
//! neighbours from the previous pass's r, d and q): two launches per
//! iteration, the pass and a one-thread end; block size 64, 128 or 256.
CgReport pde_mcf_cg_single_pass(const PdeMesh& pde, const PdeMcfSystem& s, float dt, float* x,
                                float* r, const CgOptions& options, int block_threads,
                                cudaStream_t stream = 0);

}  // namespace rxmesh::baselines
