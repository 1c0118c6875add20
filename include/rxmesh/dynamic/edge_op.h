// What a user's per-edge callback sees and returns, and what a pass reports.
//
//   mesh.split_pass([=] __device__ (const EdgeContext& e) {
//       const Vec3 p = e.position(e.a), q = e.position(e.b);
//       return EdgeDecision{squared_norm(q - p) > limit, 0.5f * (p + q)};
//   });
//
// The engine then refuses what would break the mesh (edge_checks.cuh), keeps
// a conflict-free subset of the rest (lower priority first, ties broken by a
// fixed permutation of the edge ids) and applies it.
#pragma once

#include <cstdint>
#include <string>

#include "rxmesh/core/ids.h"
#include "rxmesh/core/vec3.h"
#include "rxmesh/dynamic/connectivity.h"

namespace rxmesh {

enum class EdgeOpKind : std::uint8_t { Flip, Split, Collapse };

const char* to_string(EdgeOpKind kind);

enum class EdgeOpStatus : std::uint8_t {
    NotAsked   = 0,  // the callback declined
    Refused    = 1,  // it would break the mesh
    Conflicted = 2,  // overlapped an operation that went first; ask again next pass
    Applied    = 3,
};

//! One edge as the callback sees it at the start of a pass, in the typed
//! ids of the rest of the library (slot ids: a DynamicAttribute's view takes
//! them as they are, color(e.a)). a < b; c is the third vertex of the face
//! walking a -> b (of the edge's first face when none does), d that of the
//! other face (not valid, !d.is_valid(), on the boundary).
struct EdgeContext
{
    EdgeId        edge;
    VertexId      a, b, c, d;
    std::uint32_t num_faces = 0;
    bool          manifold  = false;  // the edge; its vertices may still not be
    const float*  positions = nullptr;
    //! The pass's whole connectivity, for callbacks that look past the two
    //! faces (dynamic_pass.cuh: vertex_context(e, v) walks v's one-ring).
    ConnectivityView mesh;

    RXMESH_HD bool boundary() const { return num_faces == 1; }
    RXMESH_HD Vec3 position(VertexId v) const { return load3(positions, v.id()); }
};

//! The callback's answer. position: where a split puts the new vertex, where
//! a collapse puts the surviving vertex a (b merges into it); unused by
//! flips. priority: lower goes first when operations overlap.
struct EdgeDecision
{
    bool  apply    = false;
    Vec3  position = {};
    float priority = 0.f;
};

//! Which edges a pass asks its callback about.
enum class AskEdges : std::uint8_t {
    Every,
    //! Only edges with an end the mesh's previous pass touched: a vertex
    //! whose fan its operations changed (a collapse's ends and their
    //! neighbours; a split's four vertices and the new one; a flip's four
    //! and their neighbours), or an end of a candidate it left conflicted; the others
    //! count as declined. The same answers as Every when the previous pass
    //! ran the same callback (itself asking every edge, or this way), and
    //! the callback's answer for (a, b) depends only on what lies in the
    //! fans of a and b (their faces, those faces' vertices and attributes,
    //! the flags of a and b): nothing else there can have changed. After
    //! move_vertices, or on a new mesh, every edge is asked.
    NearLastChanges,
};

//! Which edges a pass asks, and what it may apply at most: the candidates
//! (asked and not refused) with the lowest priorities, up to max_applied,
//! compete for it; the rest are reported as conflicted (ask again).
//! Simplification to an exact face count, or cheapest-first batches, use it.
struct PassLimits
{
    std::uint32_t max_applied = ~0u;
    AskEdges      ask         = AskEdges::Every;
};

struct PassReport
{
    EdgeOpKind    kind       = EdgeOpKind::Flip;
    std::uint32_t edges      = 0;  // edges at the start of the pass
    std::uint32_t called     = 0;  // edges the callback was called for (AskEdges)
    std::uint32_t asked      = 0;  // the callback said yes
    std::uint32_t refused    = 0;
    std::uint32_t conflicted = 0;
    std::uint32_t applied    = 0;
    std::uint32_t rounds     = 0;  // conflict-resolution rounds
    float         ms         = 0;  // the whole pass, connectivity included
    //! Device time of the pass's phases (they add up to ms): the edge table
    //! (rebuilt after a split or collapse pass), the callback, the engine's
    //! checks and the candidates' selection, the conflict rounds, applying.
    float table_ms = 0, decide_ms = 0, select_ms = 0, resolve_ms = 0, apply_ms = 0;

    //! A pass without progress: applied == 0. A loop over passes must stop
    //! then, since the mesh (and so the next pass) is unchanged.
    bool progress() const { return applied > 0; }
    std::string to_json() const;
};

}  // namespace rxmesh
