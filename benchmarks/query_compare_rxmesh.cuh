// RXMesh behind the interface of the GPU query baselines (PdeMesh, CsrMesh:
// num_sources, allocate, run, edge_vertices), running the paper's workload:
// every source element writes its output ids to a pre-allocated buffer at its
// row's offset. Used by bench_query_compare.
#pragma once

#include <algorithm>
#include <cstdint>

#include "query_workload.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::bench::query_compare {

using baselines::EdgeVertices;
using baselines::QueryOutput;

constexpr std::uint32_t fixed_row_size(Op op)
{
    return std::uint32_t(op_facts(op).row_length);  // OpTraits: 0 for the staged queries
}

template <Op op>
struct CountRows
{
    std::uint32_t* counts;
    __device__ void operator()(typename OpTraits<op>::Source s,
                               const RowView<typename OpTraits<op>::Output>& it) const
    {
        counts[s.id()] = it.size();
    }
};

//! The timed workload: row s's output ids to values[offset(s) ...].
template <Op op>
struct WriteRows
{
    const std::uint32_t* offsets;
    std::uint32_t*       values;
    __device__ void operator()(typename OpTraits<op>::Source s,
                               const RowView<typename OpTraits<op>::Output>& it) const
    {
        constexpr std::uint32_t k = fixed_row_size(op);
        // read-only load, as the baselines' __restrict__ / __ldg offsets: it
        // does not wait for the previous element's stores
        const std::uint32_t     o = k ? k * s.id() : __ldg(offsets + s.id());
        // (RowView::for_each: short rows unroll, so the next elements'
        // offset loads need not wait for this row's stores)
        it.for_each([&](std::uint32_t i, auto out) { values[o + i] = out.id(); });
    }
};

//! RXMesh with the same interface as PdeMesh / CsrMesh (BlockThreads: the
//! query blocks' size).
template <int BlockThreads = 0>
class RXMeshQueries
{
   public:
    explicit RXMeshQueries(const RXMesh& mesh) : m_mesh(mesh) {}

    std::uint32_t num_sources(Op op) const
    {
        return baselines::num_sources(op, m_mesh.num_vertices(), m_mesh.num_edges(),
                                      m_mesh.num_faces());
    }

    QueryOutput allocate(Op op) const
    {
        switch (op) {
            case Op::VV: return allocate_impl<Op::VV>();
            case Op::VE: return allocate_impl<Op::VE>();
            case Op::VF: return allocate_impl<Op::VF>();
            case Op::EV: return allocate_impl<Op::EV>();
            case Op::EF: return allocate_impl<Op::EF>();
            case Op::FV: return allocate_impl<Op::FV>();
            case Op::FE: return allocate_impl<Op::FE>();
            case Op::FF: return allocate_impl<Op::FF>();
        }
        return {};
    }

    void run(Op op, QueryOutput& out) const
    {
        switch (op) {
            case Op::VV: return run_impl<Op::VV>(out);
            case Op::VE: return run_impl<Op::VE>(out);
            case Op::VF: return run_impl<Op::VF>(out);
            case Op::EV: return run_impl<Op::EV>(out);
            case Op::EF: return run_impl<Op::EF>(out);
            case Op::FV: return run_impl<Op::FV>(out);
            case Op::FE: return run_impl<Op::FE>(out);
            case Op::FF: return run_impl<Op::FF>(out);
        }
    }

    //! RXMesh edge id -> vertex pair (from its own EV).
    EdgeVertices edge_vertices() const
    {
        QueryOutput out = allocate(Op::EV);
        run(Op::EV, out);
        const auto   v = out.values.to_host();
        EdgeVertices e(m_mesh.num_edges());
        for (std::size_t i = 0; i < e.size(); ++i)
            e[i] = {std::min(v[2 * i], v[2 * i + 1]), std::max(v[2 * i], v[2 * i + 1])};
        return e;
    }

   private:
    template <Op op>
    static constexpr int threads()
    {
        return BlockThreads != 0 ? BlockThreads : default_query_threads(op);
    }

    template <Op op>
    QueryOutput allocate_impl() const
    {
        const std::uint32_t n = num_sources(op);
        QueryOutput         out;
        if constexpr (fixed_row_size(op) != 0) {
            out.offsets = baselines::detail::fixed_offsets(n, fixed_row_size(op));
            out.values  = DeviceBuffer<std::uint32_t>(std::size_t(fixed_row_size(op)) * n);
        } else {
            DeviceBuffer<std::uint32_t> counts(std::size_t(n) + 1);
            counts.memset(0);
            m_mesh.for_each<op, threads<op>()>(CountRows<op>{counts.data()});
            RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
            std::uint32_t total = 0;
            out.offsets         = baselines::detail::offsets_from_counts(counts, total);
            out.values          = DeviceBuffer<std::uint32_t>(std::max(1u, total));
            out.values.shrink(total);
        }
        return out;
    }

    template <Op op>
    void run_impl(QueryOutput& out) const
    {
        m_mesh.for_each<op, threads<op>()>(WriteRows<op>{out.offsets.data(), out.values.data()});
    }

    const RXMesh& m_mesh;
};

}  // namespace rxmesh::bench::query_compare
