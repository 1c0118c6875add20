// PatchQuery<Op>: a query prepared for the user's own kernel (the paper's
// low-level form). It carries its launch configuration (one block per
// patch, the block size, the dynamic shared memory for the largest patch),
// so the kernel and its launch cannot disagree on either:
//
//   template <typename Q>
//   __global__ void valence(Q q, float* out)
//   {
//       q.run([&](rxmesh::VertexId v, const rxmesh::RowView<rxmesh::VertexId>& vv) {
//           out[v.id()] = float(vv.size());
//       });
//   }
//   auto q = mesh.query<rxmesh::Op::VV>();            // PatchQuery<Op::VV, 64>
//   rxmesh::launch(q, valence<decltype(q)>, stream, q, out);
//
// launch() opts the kernel into the shared memory it needs and launches
// q.grid() blocks of q.block() threads. A kernel launched by hand with
// another block size stops at its first block with a message (printf) and a
// launch failure. A patch whose query does not fit the device's shared
// memory makes RXMesh::query() throw; RXMesh::for_each handles such meshes
// (it falls back to global memory).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/query/block_query.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/op.h"

namespace rxmesh {

template <Op op, int BlockThreads = default_query_threads(op)>
class PatchQuery
{
    static_assert(BlockThreads > 0 && BlockThreads % 32 == 0 && BlockThreads <= 1024,
                  "a query block is a whole number of warps, at most 1024 threads");

   public:
    static constexpr Op  query         = op;
    static constexpr int block_threads = BlockThreads;

    PatchQuery(const DeviceMesh& mesh, bool oriented, std::size_t smem_bytes)
        : m_mesh(mesh), m_oriented(oriented && can_orient(op)), m_smem(smem_bytes)
    {
    }

    unsigned    grid() const { return m_mesh.store.num_patches; }
    unsigned    block() const { return BlockThreads; }
    std::size_t smem_bytes() const { return m_smem; }
    bool        oriented() const { return m_oriented; }

    //! Called by every thread of the block: computes the query for the
    //! block's patches and calls user(source_id, row) once per owned source
    //! element for which active(source_id) holds.
    template <typename Lambda, typename Active = AllActive>
    __device__ void run(Lambda&& user, Active&& active = {}) const
    {
        if (blockDim.x != BlockThreads) {
            if (threadIdx.x == 0 && blockIdx.x == 0)
                printf("rxmesh::PatchQuery<%s, %d>::run: launched with %u threads per block; "
                       "launch with q.block() threads (rxmesh::launch does)\n",
                       to_string(op), BlockThreads, blockDim.x);
            __trap();
        }
        detail::block_query<op, BlockThreads, true>(m_mesh, user, active, m_oriented);
    }

   private:
    DeviceMesh  m_mesh;
    bool        m_oriented = false;
    std::size_t m_smem     = 0;
};

//! Launches kernel<<<q.grid(), q.block(), q.smem_bytes(), stream>>>(args...)
//! after opting the kernel into that much dynamic shared memory (beside its
//! own static shared memory; once per kernel, device and host thread:
//! core/launch.cuh).
//! \throw Error when the kernel's static shared memory and q.smem_bytes()
//!        together exceed the device's; CudaError when the launch fails.
template <typename Query, typename... KernelArgs, typename... Args>
void launch(const Query& q, void (*kernel)(KernelArgs...), cudaStream_t stream, Args&&... args)
{
    if (q.grid() == 0)
        return;
    detail::Launcher l = detail::launcher(kernel);
    if (!l.fit_shared_memory(q.smem_bytes()))
        throw Error(std::string("rxmesh::launch: the kernel's ") + std::to_string(l.static_smem()) +
                    " bytes of static shared memory and the query's " +
                    std::to_string(q.smem_bytes()) + " exceed the device's " +
                    std::to_string(l.device().max_smem));
    kernel<<<q.grid(), q.block(), q.smem_bytes(), stream>>>(std::forward<Args>(args)...);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh
