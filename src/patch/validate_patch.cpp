// The checks of one patch against the mesh: its ribbon edge copies
// (EdgeOwnership), FaceGeometry, RibbonFaces, its local element sets
// (RibbonLists) and OneRing. Only called for a patch whose ribbon entries
// and local ids are in range, so every local id below can be followed.
#include <iterator>
#include <string>

#include "validate_context.h"

namespace rxmesh::detail::validation {
namespace {

PatchView view_of(const HostPatchStore& s, u32 p)
{
    PatchView v;
    v.own_v   = s.vertex_offsets[p + 1] - s.vertex_offsets[p];
    v.own_e   = s.edge_offsets[p + 1] - s.edge_offsets[p];
    v.own_f   = s.face_offsets[p + 1] - s.face_offsets[p];
    v.nv      = v.own_v + (s.ribbon_v_offsets[p + 1] - s.ribbon_v_offsets[p]);
    v.ne      = v.own_e + (s.ribbon_e_offsets[p + 1] - s.ribbon_e_offsets[p]);
    v.nf      = v.own_f + (s.ribbon_f_offsets[p + 1] - s.ribbon_f_offsets[p]);
    v.ev_base = 2 * (u64(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
    v.fe_base = 3 * (u64(s.face_offsets[p]) + s.ribbon_f_offsets[p]);
    // local -> global: the owned range, then the ribbon list
    auto fill = [](std::vector<u32>& l2g, u32 first, u32 owned, const std::vector<u32>& ribbon,
                   u32 r0, u32 r1) {
        l2g.resize(owned);
        for (u32 i = 0; i < owned; ++i)
            l2g[i] = first + i;
        l2g.insert(l2g.end(), ribbon.begin() + r0, ribbon.begin() + r1);
    };
    fill(v.lv2g, s.vertex_offsets[p], v.own_v, s.ribbon_v, s.ribbon_v_offsets[p],
         s.ribbon_v_offsets[p + 1]);
    fill(v.le2g, s.edge_offsets[p], v.own_e, s.ribbon_e, s.ribbon_e_offsets[p],
         s.ribbon_e_offsets[p + 1]);
    fill(v.lf2g, s.face_offsets[p], v.own_f, s.ribbon_f, s.ribbon_f_offsets[p],
         s.ribbon_f_offsets[p + 1]);
    return v;
}

//! The sorted set difference a \ b.
std::vector<u32> minus(const std::vector<u32>& a, const std::vector<u32>& b)
{
    std::vector<u32> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

std::string mesh_edge(const ValidateContext& ctx, u32 c)
{
    return "mesh edge " + pair_str(ctx.mesh.edges[c][0], ctx.mesh.edges[c][1]);
}

//! RibbonLists: local vertices = those of local faces (+ owned unreferenced).
void check_local_vertices(ValidateContext& ctx, const LocalPatch& lp)
{
    const HostPatchStore& s = ctx.s;
    const u32             p = lp.p;
    std::vector<u32>      expected;
    for (const u32 g : lp.pv.lf2g)
        for (u32 k = 0; k < 3; ++k)
            expected.push_back(ctx.faces[g][k]);
    for (u32 v = s.vertex_offsets[p]; v < s.vertex_offsets[p + 1]; ++v)
        if (ctx.mesh.vertex_faces[v].empty())
            expected.push_back(v);
    sort_unique(expected);
    for (const u32 g : minus(expected, lp.local_vertices))
        ctx.bad(Contract::RibbonLists,
                P(p) + "vertex " + S(g) + " is used by a local face but is not a local vertex");
    for (const u32 g : minus(lp.local_vertices, expected))
        ctx.bad(Contract::RibbonLists,
                P(p) + "vertex " + S(g) + " is a local vertex but no local face uses it");
}

//! RibbonLists: local edges = those of local faces, each once (as mesh edges).
void check_local_edges(ValidateContext& ctx, const LocalPatch& lp)
{
    const u32        p = lp.p;
    std::vector<u32> expected;
    for (const u32 g : lp.pv.lf2g)
        for (u32 k = 0; k < 3; ++k)
            expected.push_back(ctx.mesh.face_edges[g][k]);
    sort_unique(expected);
    std::vector<u32> named;  // the mesh edges the local edges name, with repeats
    for (const u32 c : lp.lcanon)
        if (c != kNoEdge)
            named.push_back(c);
    std::sort(named.begin(), named.end());
    for (std::size_t i = 1; i < named.size(); ++i)
        if (named[i] == named[i - 1])
            ctx.bad(Contract::RibbonLists,
                    P(p) + mesh_edge(ctx, named[i]) + " is more than one local edge");
    for (const u32 c : minus(expected, lp.local_edges))
        ctx.bad(Contract::RibbonLists, P(p) + mesh_edge(ctx, c) +
                                           " is used by a local face but is not a local edge");
    for (const u32 c : minus(lp.local_edges, expected))
        ctx.bad(Contract::RibbonLists,
                P(p) + mesh_edge(ctx, c) + " is a local edge but no local face uses it");
}

}  // namespace

LocalPatch local_patch(const ValidateContext& ctx, u32 p)
{
    const HostPatchStore& s = ctx.s;
    LocalPatch            lp;
    lp.p                = p;
    lp.pv               = view_of(s, p);
    const PatchView& pv = lp.pv;
    lp.lev.resize(pv.ne);
    lp.lcanon.resize(pv.ne);
    for (u32 l = 0; l < pv.ne; ++l) {
        lp.lev[l] = {pv.lv2g[s.m_ev[pv.ev_base + 2 * l]], pv.lv2g[s.m_ev[pv.ev_base + 2 * l + 1]]};
        lp.lcanon[l] = ctx.mesh.find_edge(lp.lev[l][0], lp.lev[l][1]);
        if (lp.lcanon[l] != kNoEdge)
            lp.local_edges.push_back(lp.lcanon[l]);
    }
    sort_unique(lp.local_edges);
    lp.local_faces = pv.lf2g;
    sort_unique(lp.local_faces);
    lp.local_vertices = pv.lv2g;
    sort_unique(lp.local_vertices);
    return lp;
}

void check_ribbon_edge_ownership(ValidateContext& ctx, const LocalPatch& lp)
{
    // a ribbon copy of an edge names the vertices its owner defines
    const HostPatchStore& s = ctx.s;
    const u32             p = lp.p;
    for (u32 l = lp.pv.own_e; l < lp.pv.ne; ++l) {
        const u32                 g   = lp.pv.le2g[l];
        const std::array<u32, 2>& def = ctx.edge_def[g];
        const u32                 a = lp.lev[l][0], b = lp.lev[l][1];
        if (def[0] != kNone) {
            if (def != lp.lev[l])
                ctx.bad(Contract::EdgeOwnership,
                        P(p) + "ribbon edge " + S(g) + " (local " + S(l) + ") has vertices " +
                            pair_str(a, b) + " but its owner patch " +
                            S(owner_of(s.edge_offsets, g)) + " defines it as " +
                            pair_str(def[0], def[1]));
        } else if (lp.lcanon[l] == kNoEdge || a > b) {
            // the owner was left out: the copy can still be checked alone
            ctx.bad(Contract::EdgeOwnership, P(p) + "ribbon edge " + S(g) + " (local " + S(l) +
                                                 ") has vertices " + pair_str(a, b) +
                                                 ", not a mesh edge smaller id first");
        }
    }
}

void check_face_geometry(ValidateContext& ctx, const LocalPatch& lp)
{
    // M_FE -> M_EV walks each local face's sides in winding order
    const HostPatchStore& s  = ctx.s;
    const PatchView&      pv = lp.pv;
    for (u32 lf = 0; lf < pv.nf; ++lf) {
        const u32       g = pv.lf2g[lf];
        const Triangle& t = ctx.faces[g];
        for (u32 k = 0; k < 3; ++k) {
            const u32 entry = s.m_fe[pv.fe_base + 3 * lf + k];
            const u32 le = entry >> 1, flip = entry & 1u;
            const u32 from = flip ? lp.lev[le][1] : lp.lev[le][0];
            const u32 to   = flip ? lp.lev[le][0] : lp.lev[le][1];
            if (from != t[k] || to != t[(k + 1) % 3])
                ctx.bad(Contract::FaceGeometry,
                        P(lp.p) + "face " + S(g) + " (local " + S(lf) + ") side " + S(k) +
                            ": M_FE names edge " + S(pv.le2g[le]) + " (local " + S(le) +
                            ") flip " + S(flip) + ", walking " + pair_str(from, to) +
                            ", but the face walks " + pair_str(t[k], t[(k + 1) % 3]));
        }
    }
}

void check_ribbon_faces(ValidateContext& ctx, const LocalPatch& lp)
{
    // the ribbon: faces of other patches sharing a vertex with an owned face
    const HostPatchStore& s = ctx.s;
    const u32             p = lp.p;
    std::vector<u32>      corners;  // the vertices of the owned faces
    for (u32 g = s.face_offsets[p]; g < s.face_offsets[p + 1]; ++g)
        for (u32 k = 0; k < 3; ++k)
            corners.push_back(ctx.faces[g][k]);
    sort_unique(corners);
    std::vector<u32> expected;
    for (const u32 v : corners)
        for (const u32 f : ctx.mesh.vertex_faces[v])
            if (ctx.f_patch[f] != p)
                expected.push_back(f);
    sort_unique(expected);
    std::vector<u32> ribbon(lp.pv.lf2g.begin() + lp.pv.own_f, lp.pv.lf2g.end());
    sort_unique(ribbon);
    for (const u32 g : minus(expected, ribbon))
        ctx.bad(Contract::RibbonFaces, P(p) + "face " + S(g) +
                                           " shares a vertex with an owned face but is not in "
                                           "the ribbon");
    // an owned face in the ribbon is RibbonLists' to report
    for (const u32 g : minus(ribbon, expected))
        if (g < s.face_offsets[p] || g >= s.face_offsets[p + 1])
            ctx.bad(Contract::RibbonFaces, P(p) + "face " + S(g) +
                                               " is in the ribbon but shares no vertex with an "
                                               "owned face");
}

void check_ribbon_lists(ValidateContext& ctx, const LocalPatch& lp)
{
    check_local_vertices(ctx, lp);
    check_local_edges(ctx, lp);
}

void check_one_ring(ValidateContext& ctx, const LocalPatch& lp)
{
    // every owned vertex's faces, edges and neighbours are local
    const HostPatchStore& s  = ctx.s;
    const u32             p  = lp.p;
    const u32             v0 = s.vertex_offsets[p];
    for (u32 v = v0; v < s.vertex_offsets[p + 1]; ++v) {
        const std::string who = "owned vertex " + S(v) + " (local " + S(v - v0) + ")";
        for (const u32 f : ctx.mesh.vertex_faces[v])
            if (!contains(lp.local_faces, f))
                ctx.bad(Contract::OneRing,
                        P(p) + "face " + S(f) + " incident to " + who + " is not a local face");
        for (const u32 c : ctx.mesh.vertex_edges[v])
            if (!contains(lp.local_edges, c))
                ctx.bad(Contract::OneRing, P(p) + mesh_edge(ctx, c) + " incident to " + who +
                                               " is not a local edge");
        for (const u32 n : ctx.mesh.vertex_vertices[v])
            if (!contains(lp.local_vertices, n))
                ctx.bad(Contract::OneRing, P(p) + "vertex " + S(n) + " adjacent to " + who +
                                               " is not a local vertex");
    }
}

}  // namespace rxmesh::detail::validation
