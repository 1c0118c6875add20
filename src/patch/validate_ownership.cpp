// The global ownership checks: EdgeOwnership (each mesh edge defined by
// exactly one owner patch) and VertexOwnership (what a patch owns touches a
// face it owns). Only patches that passed the entry and LocalIds checks are
// read.
#include <string>

#include "validate_context.h"

namespace rxmesh::detail::validation {

void check_owned_edges(ValidateContext& ctx)
{
    // A global edge has no stored vertices: its owner's M_EV defines it.
    const HostPatchStore& s = ctx.s;
    ctx.edge_def.assign(ctx.E, {kNone, kNone});
    ctx.canon.assign(ctx.E, kNone);
    ctx.all_defined = true;
    for (u32 p = 0; p < ctx.NP; ++p) {
        if (!ctx.patch_ok[p]) {
            ctx.all_defined = ctx.all_defined && s.edge_offsets[p] == s.edge_offsets[p + 1];
            continue;
        }
        const u32 v0 = s.vertex_offsets[p], own_v = s.vertex_offsets[p + 1] - v0;
        const u64 ev_base = 2 * (u64(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
        auto      lv2g    = [&](u32 l) {
            return l < own_v ? v0 + l : s.ribbon_v[s.ribbon_v_offsets[p] + (l - own_v)];
        };
        for (u32 g = s.edge_offsets[p]; g < s.edge_offsets[p + 1]; ++g) {
            const u64 l = g - s.edge_offsets[p];
            const u32 a = lv2g(s.m_ev[ev_base + 2 * l]), b = lv2g(s.m_ev[ev_base + 2 * l + 1]);
            ctx.edge_def[g] = {a, b};
            ctx.canon[g]    = ctx.mesh.find_edge(a, b);
            if (ctx.canon[g] == kNone)
                ctx.bad(Contract::EdgeOwnership, P(p) + "owned edge " + S(g) + " (local " + S(l) +
                                                     ") = vertices " + pair_str(a, b) +
                                                     " is not a mesh edge");
            else if (a > b)
                ctx.bad(Contract::EdgeOwnership, P(p) + "M_EV of owned edge " + S(g) +
                                                     " (local " + S(l) + ") lists vertices " +
                                                     pair_str(a, b) + ", larger global id first");
        }
    }
}

void check_edge_ownership(ValidateContext& ctx)
{
    // each mesh edge is defined by exactly one global edge
    const HostPatchStore& s     = ctx.s;
    const auto&           edges = ctx.mesh.edges;
    std::vector<u32>      owned_as(ctx.E, kNone);
    for (u32 g = 0; g < ctx.E; ++g) {
        const u32 c = ctx.canon[g];
        if (c == kNone)
            continue;
        if (owned_as[c] != kNone) {
            const u32 h = owned_as[c];
            ctx.bad(Contract::EdgeOwnership,
                    "mesh edge " + pair_str(edges[c][0], edges[c][1]) +
                        " is owned twice: as edge " + S(h) + " of patch " +
                        S(owner_of(s.edge_offsets, h)) + " and as edge " + S(g) + " of patch " +
                        S(owner_of(s.edge_offsets, g)));
        } else {
            owned_as[c] = g;
        }
    }
    // an undefined global edge (its owner not ok) may be the missing one
    if (!ctx.all_defined)
        return;
    for (u32 c = 0; c < ctx.E; ++c)
        if (owned_as[c] == kNone)
            ctx.bad(Contract::EdgeOwnership,
                    "mesh edge " + pair_str(edges[c][0], edges[c][1]) + " is owned by no patch");
}

void check_vertex_ownership(ValidateContext& ctx)
{
    const HostPatchStore& s = ctx.s;
    for (u32 v = 0; v < ctx.V; ++v) {
        const u32      p     = ctx.v_patch[v];
        const RowRange faces = ctx.mesh.vertex_faces[v];
        if (faces.empty()) {
            if (p != 0)
                ctx.bad(Contract::VertexOwnership,
                        P(p) + "owns vertex " + S(v) + " (local " + S(v - s.vertex_offsets[p]) +
                            "), which no face uses; unreferenced vertices belong to patch 0");
            continue;
        }
        const bool found = std::any_of(faces.begin(), faces.end(),
                                       [&](u32 f) { return ctx.f_patch[f] == p; });
        if (!found)
            ctx.bad(Contract::VertexOwnership, P(p) + "owns vertex " + S(v) + " (local " +
                                                   S(v - s.vertex_offsets[p]) +
                                                   ") but none of its faces");
    }
    for (u32 g = 0; g < ctx.E; ++g) {
        const u32 c = ctx.canon[g];
        if (c == kNone)
            continue;
        const u32      p     = owner_of(s.edge_offsets, g);
        const RowRange faces = ctx.mesh.edge_faces[c];
        const bool     found = std::any_of(faces.begin(), faces.end(),
                                           [&](u32 f) { return ctx.f_patch[f] == p; });
        if (!found)
            ctx.bad(Contract::VertexOwnership,
                    P(p) + "owns edge " + S(g) + " (local " + S(g - s.edge_offsets[p]) + ") = " +
                        pair_str(ctx.edge_def[g][0], ctx.edge_def[g][1]) +
                        " but none of its faces");
    }
}

}  // namespace rxmesh::detail::validation
