// How RXMesh::accumulate runs a patch (query/accumulate.cuh), chosen per
// mesh (RXMesh::set_accumulate_form) and per call from the mesh's size:
// - Staged: the block stages the patch's vertex input and rows in shared
//   memory, behind barriers, then each thread gathers its vertices from
//   there. Every read of a row or an input value after the staging is a
//   shared-memory read, and each is loaded from global memory once per patch.
// - Direct: with the mesh's kept source lists (RXMesh::vertex_sources) a
//   thread needs nothing from its block: it reads its vertex's list, each
//   source's row and the row's input values from global memory (the patch's
//   rows and values stay in L1 for the block's other threads), with no
//   shared memory and no barrier. Each row is decoded once per vertex of the
//   row rather than once per patch, but a vertex's result no longer waits
//   for the block's staging: what a mesh of few patches per SM, each block
//   one dependent chain, is bound by.
// - Auto: Direct when the lists are kept and the launch has at most
//   kDirectAccumulatePatchesPerSM patches (or scheduled entries) per SM,
//   else Staged (benchmarks/vertex_normals.cu measures both at each size).
// Without kept lists every form runs Staged (the lists are what let a
// thread find its vertex's sources without its block).
#pragma once

#include <cstdint>

namespace rxmesh {

enum class AccumulateForm : std::uint8_t
{
    Auto,
    Staged,
    Direct,
};

//! Auto's limit: patches (scheduled entries) per SM up to which Direct runs.
inline constexpr std::uint32_t kDirectAccumulatePatchesPerSM = 8;

namespace detail {

//! Whether accumulate runs Direct: `items` patches or scheduled entries on
//! a device of `sms` SMs, with (kept) or without the mesh's source lists.
inline bool accumulate_runs_direct(AccumulateForm form, bool kept, std::uint64_t items, int sms)
{
    if (!kept || form == AccumulateForm::Staged)
        return false;
    return form == AccumulateForm::Direct ||
           items <= std::uint64_t(kDirectAccumulatePatchesPerSM) * std::uint64_t(sms);
}

}  // namespace detail
}  // namespace rxmesh
