// accumulate's flat form (AccumulateForm::Flat), beside the patch form of
// query/accumulate.cuh.
//
// The patch form runs a block per patch: it stages the patch's input and
// rows in shared memory behind barriers, then gathers each owned vertex.
// On a small mesh every block is resident at once and the kernel lasts as
// long as one block's chain of stage, barrier, rows, barrier, gather; the
// SMs that get a second patch run that chain twice. The flat form runs a
// thread per vertex, with nothing shared: the vertex's owner patch (a binary
// search of the patches' first vertices), its kept list of sources
// (query/vertex_sources.h), and for each source its row and its corners'
// input values, read through the caches, a few sources' loads in flight
// together. Its chain is a few dependent loads per batch of sources and no
// barrier, so it can end sooner where the patch form is one wave of blocks;
// with many patches per SM the patch form reads each input value once per
// patch instead of once per (vertex, source) pair, and the flat form's
// registers (a batch of sources) cost it resident threads.
//
// Which wins depends on the launch it is measured against: on the meshes of
// about one patch per SM, the flat form beat the patch form's 128-thread
// blocks, but 512-thread blocks (vertex_normals' choice there) did as well,
// and with many patches per SM the patch form wins. So the flat form runs
// only where asked for (AccumulateForm::Flat): bilateral_denoise asks for it
// on small meshes (the H100 note accumulate_flat.md, in git history:
// benchmarks/results/nvidia-h100/README.md).
//
// The flat form needs the mesh's kept lists (RXMesh::vertex_sources) and
// every patch (no schedule). It calls contribute for the same (vertex,
// source) pairs in the same order as the patch form with kept lists, with
// the same values, so both give the same sums, bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/search.cuh"
#include "rxmesh/query/accumulate.cuh"
#include "rxmesh/query/accumulate_policy.h"

namespace rxmesh {

namespace detail {

//! Threads per block of the flat form (the caller's BlockThreads and
//! MinBlocks are the patch form's launch). Small blocks spread a small
//! mesh's vertices over every SM.
inline constexpr int kAccumulateFlatThreads = 128;

//! One source as the flat form reads it: its row of local vertices, their
//! global ids and their input values (corner k's at k * M).
template <Op op, typename Input>
struct FlatSource
{
    static constexpr int K = OpTraits<op>::row_length;
    static constexpr int M = Input::components;
    std::uint32_t        id;
    std::uint16_t        raw[3];
    std::uint32_t        global[3];
    typename Input::value_type values[M > 0 ? K * M : 1];

    //! Loads local source i of patch pi from global memory.
    __device__ __forceinline__ void load(const PatchInfo& pi, std::uint32_t i, const Input& input)
    {
        id     = i;
        raw[2] = 0xFFFF;  // an edge's third corner is no vertex
        direct_row<op>(pi, i, raw);
#pragma unroll
        for (int k = 0; k < 3; ++k)
            global[k] = k < K ? pi.vmap(raw[k]) : 0u;
#pragma unroll
        for (int k = 0; k < K; ++k)
#pragma unroll
            for (int d = 0; d < M; ++d)
                values[k * M + d] = input.load(global[k], d);
    }

    //! contribute for it, gathered for owned local vertex v.
    template <typename T, int N, typename Combine, typename Contribute>
    __device__ __forceinline__ void contribute_to(const PatchInfo& pi, std::uint32_t v,
                                                  T (&sum)[N], Contribute& contribute) const
    {
        constexpr std::uint16_t corners[3] = {0, 1, 2};  // values holds the row's corners
        contribute_row<op, T, N, Combine, Input>(pi, id, raw, global, values, corners, v, sum,
                                                 contribute);
    }
};

//! Sources a flat thread loads before it contributes any of them: their
//! loads are independent, so a batch's rows and values are in flight
//! together rather than one source's chain of loads after another's. One
//! at a time for inputs of more than a few values (their registers).
template <typename Input>
constexpr int flat_batch()
{
    return Input::components * sizeof(typename Input::value_type) <= 16 ? 4 : 1;
}

//! The flat form: one thread per vertex (global id g) of the V the mesh
//! has, gathering its kept sources in list order.
template <Op op, typename T, int N, int BlockThreads, typename Input, typename Combine,
          typename Active, typename Reduce, typename Contribute, typename Finalize>
__global__ void __launch_bounds__(BlockThreads)
    accumulate_flat_kernel(DeviceMesh mesh, std::uint32_t V, Input input,
                           AccumulateSpec<Combine, Active, Reduce> spec, Contribute contribute,
                           Finalize finalize)
{
    constexpr int           B       = flat_batch<Input>();
    const VertexSourcesView kept    = kept_sources<op>(mesh);
    const std::uint32_t     P       = mesh.store.num_patches;
    double                  partial = 0;
    for (std::uint32_t g = blockIdx.x * BlockThreads + threadIdx.x; g < V;
         g += gridDim.x * BlockThreads) {
        // the list's bounds load while the owner is searched
        const std::uint32_t begin = __ldg(kept.offsets + g), end = __ldg(kept.offsets + g + 1);
        const std::uint32_t p     = segment_of(mesh.store.vertex_offsets, P, g);
        if (!patch_may_be_active(spec.active, p) || !spec.active(VertexId(g)))
            continue;
        const PatchInfo     pi = mesh.patch(p);
        const std::uint32_t v  = g - pi.vmap.owned_offset;
        T                   sum[N];
#pragma unroll
        for (int d = 0; d < N; ++d)
            sum[d] = combine_identity<Combine, T>(d);
        for (std::uint32_t j = begin; j < end; j += B) {
            FlatSource<op, Input> s[B];
#pragma unroll
            for (int b = 0; b < B; ++b)
                if (j + b < end)
                    s[b].load(pi, __ldg(kept.sources + j + b), input);
#pragma unroll
            for (int b = 0; b < B; ++b)
                if (j + b < end)
                    s[b].template contribute_to<T, N, Combine>(pi, v, sum, contribute);
        }
        const T(&done)[N] = sum;
        if constexpr (Reduce::enabled)
            partial += double(finalize(VertexId(g), done));
        else
            finalize(VertexId(g), done);
    }
    add_block_sum<BlockThreads>(spec.reduce, partial);
}

//! Whether the flat form can run accumulate of `op` on this mesh: the op's
//! lists kept and every patch taken (no schedule).
template <Op op>
bool accumulate_can_run_flat(const DeviceMesh& mesh)
{
    return kept_sources<op>(mesh).built() && mesh.schedule.range == nullptr;
}

//! The flat kernel over the mesh's V vertices.
template <Op op, typename T, int N, typename Input, typename Spec, typename Contribute,
          typename Finalize>
void launch_accumulate_flat(const DeviceMesh& mesh, std::uint32_t V, Input input, Spec spec,
                            Contribute contribute, Finalize finalize, cudaStream_t stream)
{
    if (V == 0)
        return;
    constexpr int  threads = kAccumulateFlatThreads;
    const unsigned grid    = unsigned((std::uint64_t(V) + threads - 1) / threads);
    accumulate_flat_kernel<op, T, N, threads>
        <<<grid, threads, 0, stream>>>(mesh, V, input, spec, contribute, finalize);
    RXMESH_CHECK_LAUNCH();
}

//! accumulate in the form Form asks for: Flat where the mesh allows it
//! (accumulate_can_run_flat), else the patch form. V: the mesh's vertices.
//! (Form is a template argument so that a call of the patch form compiles
//! no flat kernel.)
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, AccumulateForm Form,
          typename Input, typename Combine, typename Active, typename Reduce,
          typename Contribute, typename Finalize>
void launch_accumulate_form(const DeviceMesh& mesh, std::uint32_t V, Input input,
                            AccumulateSpec<Combine, Active, Reduce> spec, Contribute contribute,
                            Finalize finalize, cudaStream_t stream)
{
    if constexpr (Form == AccumulateForm::Flat) {
        if (accumulate_can_run_flat<op>(mesh)) {
            launch_accumulate_flat<op, T, N>(mesh, V, input, spec, contribute, finalize, stream);
            return;
        }
    }
    launch_accumulate<op, T, N, BlockThreads, MinBlocks>(mesh, input, spec, contribute, finalize,
                                                         stream);
}

}  // namespace detail
}  // namespace rxmesh
