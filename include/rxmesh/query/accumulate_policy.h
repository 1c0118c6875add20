// How RXMesh::accumulate launches, as one policy type (CUB's pattern):
// threads per block, the least resident blocks per SM, and the form (a
// block per patch, or a thread per vertex; query/accumulate_flat.cuh says
// how each works and where each won). The common call names none of it:
//
//   mesh.accumulate<Op::FV, float, 3>(positions, contribute, finalize);
//   mesh.accumulate<Op::FV, float, 3, Plus, AccumulatePolicy<256, 2>>(...);
#pragma once

#include <type_traits>

namespace rxmesh {

//! Which form of accumulate runs: a block per patch (Patches, the default),
//! or a thread per vertex (Flat, where the mesh keeps the op's source lists,
//! RXMesh::vertex_sources, and no schedule narrows the patches; otherwise
//! Patches runs). Flat is for meshes of a few patches per SM.
enum class AccumulateForm
{
    Patches,
    Flat
};

//! The launch of an accumulate: BlockThreads threads per block; MinBlocks,
//! the kernel's __launch_bounds__ minimum of resident blocks per SM (1: the
//! compiler's choice of registers); the form.
template <int BlockThreads = 128, int MinBlocks = 1, AccumulateForm Form = AccumulateForm::Patches>
struct AccumulatePolicy
{
    static_assert(BlockThreads > 0 && BlockThreads <= 1024,
                  "AccumulatePolicy: BlockThreads must be in [1, 1024]");
    static_assert(MinBlocks >= 0, "AccumulatePolicy: MinBlocks must not be negative");
    static constexpr int            block_threads = BlockThreads;
    static constexpr int            min_blocks    = MinBlocks;
    static constexpr AccumulateForm form          = Form;
};

//! Put where accumulate's T goes when T and N are to be read from finalize
//! and a later argument is given: accumulate<op, FromFinalize, 0, Min, P>.
//! (Left out entirely, accumulate<op>(...), or followed only by a Combine,
//! accumulate<op, Min>(...), it is implied.)
struct FromFinalize
{
};

namespace detail {

template <typename P>
struct IsAccumulatePolicy : std::false_type
{
};
template <int B, int M, AccumulateForm F>
struct IsAccumulatePolicy<AccumulatePolicy<B, M, F>> : std::true_type
{
};

}  // namespace detail
}  // namespace rxmesh
