// The checks of the store's own structure: Offsets, Capacity, Connected, the
// ribbon entries (RibbonLists) and LocalIds. Defensive: every size is checked
// before anything is indexed, and a patch whose entries or local ids are out
// of range is marked so that the later checks leave it out.
#include <string>

#include "validate_context.h"

namespace rxmesh::detail::validation {
namespace {

constexpr u64 kMaxLocalVertices = 0xFFFF;
constexpr u64 kMaxLocalFaces    = 0xFFFF;
constexpr u64 kMaxLocalEdges    = 0x7FFF;

//! One offset array: P + 1 entries, from 0, non-decreasing, up to `total`.
bool check_offset_array(ValidateContext&        ctx,
                        const std::vector<u32>& off,
                        const char*             name,
                        u64                     total,
                        const char*             what)
{
    const u32 NP = ctx.NP;
    if (off.size() != u64(NP) + 1) {
        ctx.bad(Contract::Offsets, std::string(name) + " has " + S(off.size()) +
                                       " entries, expected num_patches + 1 = " + S(u64(NP) + 1));
        return false;  // nothing else in it can be indexed
    }
    bool ok = true;
    if (off[0] != 0) {
        ctx.bad(Contract::Offsets, std::string(name) + "[0] = " + S(off[0]) + ", expected 0");
        ok = false;
    }
    for (u32 p = 0; p < NP; ++p)
        if (off[p + 1] < off[p]) {
            ctx.bad(Contract::Offsets, P(p) + std::string(name) + "[" + S(p + 1) + "] = " +
                                           S(off[p + 1]) + " < " + name + "[" + S(p) +
                                           "] = " + S(off[p]) + " (offsets decrease)");
            ok = false;
        }
    if (off[NP] != total) {
        ctx.bad(Contract::Offsets, std::string(name) + " ends at " + S(off[NP]) +
                                       " but there are " + S(total) + " " + what);
        ok = false;
    }
    return ok;
}

//! "<kind> <global id> (local <l>)" of local element l of patch p, read
//! from the owned range or the ribbon list (both already checked).
std::string local_name(const char*             kind,
                       const std::vector<u32>& own,
                       const std::vector<u32>& roff,
                       const std::vector<u32>& ribbon,
                       u32                     p,
                       u64                     l)
{
    const u32 owned = own[p + 1] - own[p];
    const u32 g     = l < owned ? own[p] + u32(l) : ribbon[roff[p] + (l - owned)];
    return std::string(kind) + " " + S(g) + " (local " + S(l) + ")";
}

//! One ribbon list of patch p: in range, owned elsewhere, sorted, unique.
void check_ribbon_list(ValidateContext&        ctx,
                       u32                     p,
                       const std::vector<u32>& list,
                       const std::vector<u32>& roff,
                       const std::vector<u32>& own,
                       const char*             name,
                       const char*             kind,
                       u64                     total)
{
    const u32 owned = own[p + 1] - own[p];
    for (u32 i = roff[p]; i < roff[p + 1]; ++i) {
        const u32 g = list[i], local = owned + (i - roff[p]);
        if (g >= total) {
            ctx.bad(Contract::RibbonLists, P(p) + name + "[" + S(i) + "] = " + kind + " " + S(g) +
                                               " (local " + S(local) +
                                               ") is out of range: there are " + S(total));
            ctx.patch_ok[p] = 0;
            continue;
        }
        if (g >= own[p] && g < own[p + 1])
            ctx.bad(Contract::RibbonLists, P(p) + "ribbon " + kind + " " + S(g) + " (local " +
                                               S(local) + ") is owned by the patch itself");
        if (i > roff[p] && list[i - 1] >= g)
            ctx.bad(Contract::RibbonLists,
                    P(p) + name + " is not sorted and unique: " + kind + " " + S(g) + " (local " +
                        S(local) + ") follows " + kind + " " + S(list[i - 1]));
    }
}

}  // namespace

bool check_offsets(ValidateContext& ctx)
{
    const HostPatchStore& s  = ctx.s;
    bool                  ok = true;
    // every array is checked (no short-circuit), so all of them are reported
    ok &= check_offset_array(ctx, s.vertex_offsets, "vertex_offsets", ctx.V, "vertices");
    ok &= check_offset_array(ctx, s.edge_offsets, "edge_offsets", ctx.E, "mesh edges");
    ok &= check_offset_array(ctx, s.face_offsets, "face_offsets", ctx.F, "faces");
    ok &= check_offset_array(ctx, s.ribbon_v_offsets, "ribbon_v_offsets", s.ribbon_v.size(),
                             "ribbon_v entries");
    ok &= check_offset_array(ctx, s.ribbon_e_offsets, "ribbon_e_offsets", s.ribbon_e.size(),
                             "ribbon_e entries");
    ok &= check_offset_array(ctx, s.ribbon_f_offsets, "ribbon_f_offsets", s.ribbon_f.size(),
                             "ribbon_f entries");
    const u64 F = ctx.F, E = ctx.E;
    if (s.m_fe.size() != 3 * (F + s.ribbon_f.size())) {
        ctx.bad(Contract::Offsets, "m_fe has " + S(s.m_fe.size()) + " entries, expected 3 * (" +
                                       S(F) + " faces + " + S(s.ribbon_f.size()) +
                                       " ribbon faces) = " + S(3 * (F + s.ribbon_f.size())));
        ok = false;
    }
    if (s.m_ev.size() != 2 * (E + s.ribbon_e.size())) {
        ctx.bad(Contract::Offsets, "m_ev has " + S(s.m_ev.size()) + " entries, expected 2 * (" +
                                       S(E) + " edges + " + S(s.ribbon_e.size()) +
                                       " ribbon edges) = " + S(2 * (E + s.ribbon_e.size())));
        ok = false;
    }
    return ok;
}

void assign_owners(ValidateContext& ctx)
{
    const HostPatchStore& s = ctx.s;
    ctx.f_patch.assign(ctx.F, 0);
    ctx.v_patch.assign(ctx.V, 0);
    for (u32 p = 0; p < ctx.NP; ++p) {
        std::fill(ctx.f_patch.begin() + s.face_offsets[p],
                  ctx.f_patch.begin() + s.face_offsets[p + 1], p);
        std::fill(ctx.v_patch.begin() + s.vertex_offsets[p],
                  ctx.v_patch.begin() + s.vertex_offsets[p + 1], p);
    }
    ctx.patch_ok.assign(ctx.NP, 1);
}

void check_capacity_and_connected(ValidateContext& ctx)
{
    // one pass: both contracts are about a patch's owned faces
    const HostPatchStore& s = ctx.s;
    std::vector<char>     seen(ctx.F, 0);
    std::vector<u32>      queue;
    for (u32 p = 0; p < ctx.NP; ++p) {
        const u32 f0 = s.face_offsets[p], f1 = s.face_offsets[p + 1];
        if (f1 - f0 > s.capacity)
            ctx.bad(Contract::Capacity, P(p) + "owns " + S(f1 - f0) +
                                            " faces, more than the capacity " + S(s.capacity));
        if (f0 == f1) {
            ctx.bad(Contract::Connected, P(p) + "owns no face");
            continue;
        }
        // breadth-first over face-face adjacency, inside the owned range
        queue.assign(1, f0);
        seen[f0] = 1;
        for (std::size_t head = 0; head < queue.size(); ++head)
            for (const u32 n : ctx.mesh.face_faces[queue[head]])
                if (n >= f0 && n < f1 && !seen[n]) {
                    seen[n] = 1;
                    queue.push_back(n);
                }
        if (queue.size() != f1 - f0) {
            u32 first = f0;
            while (seen[first])
                ++first;
            ctx.bad(Contract::Connected,
                    P(p) + "owned faces are not edge-connected: face " + S(first) + " (local " +
                        S(first - f0) + ") is not reachable from face " + S(f0) + " (" +
                        S(queue.size()) + " of " + S(f1 - f0) + " faces reachable)");
        }
    }
}

void check_ribbon_entries(ValidateContext& ctx, u32 p)
{
    const HostPatchStore& s = ctx.s;
    check_ribbon_list(ctx, p, s.ribbon_v, s.ribbon_v_offsets, s.vertex_offsets, "ribbon_v",
                      "vertex", ctx.V);
    check_ribbon_list(ctx, p, s.ribbon_e, s.ribbon_e_offsets, s.edge_offsets, "ribbon_e", "edge",
                      ctx.E);
    check_ribbon_list(ctx, p, s.ribbon_f, s.ribbon_f_offsets, s.face_offsets, "ribbon_f", "face",
                      ctx.F);
}

void check_local_ids(ValidateContext& ctx, u32 p)
{
    const HostPatchStore& s = ctx.s;
    // 64-bit counts: a corrupted store must not wrap them into range
    const u64 nv = u64(s.vertex_offsets[p + 1] - s.vertex_offsets[p]) +
                   (s.ribbon_v_offsets[p + 1] - s.ribbon_v_offsets[p]);
    const u64 ne = u64(s.edge_offsets[p + 1] - s.edge_offsets[p]) +
                   (s.ribbon_e_offsets[p + 1] - s.ribbon_e_offsets[p]);
    const u64 nf = u64(s.face_offsets[p + 1] - s.face_offsets[p]) +
                   (s.ribbon_f_offsets[p + 1] - s.ribbon_f_offsets[p]);
    if (nv > kMaxLocalVertices || ne > kMaxLocalEdges || nf > kMaxLocalFaces)
        ctx.bad(Contract::LocalIds, P(p) + S(nv) + " local vertices, " + S(ne) +
                                        " local edges, " + S(nf) +
                                        " local faces; 16-bit local ids allow at most 65535 "
                                        "vertices, 32767 edges, 65535 faces");
    const u64 ev_base = 2 * (u64(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
    const u64 fe_base = 3 * (u64(s.face_offsets[p]) + s.ribbon_f_offsets[p]);
    for (u64 i = 0; i < 2 * ne; ++i) {
        const u32 lv = s.m_ev[ev_base + i];
        if (lv >= nv) {
            ctx.bad(Contract::LocalIds,
                    P(p) + "M_EV of " +
                        local_name("edge", s.edge_offsets, s.ribbon_e_offsets, s.ribbon_e, p,
                                   i / 2) +
                        " names local vertex " + S(lv) + " but the patch has " + S(nv) +
                        " local vertices");
            ctx.patch_ok[p] = 0;
        }
    }
    for (u64 i = 0; i < 3 * nf; ++i) {
        const u32 le = s.m_fe[fe_base + i] >> 1;
        if (le >= ne) {
            ctx.bad(Contract::LocalIds,
                    P(p) + "M_FE of " +
                        local_name("face", s.face_offsets, s.ribbon_f_offsets, s.ribbon_f, p,
                                   i / 3) +
                        " side " + S(i % 3) + " names local edge " + S(le) + " but the patch has " +
                        S(ne) + " local edges");
            ctx.patch_ok[p] = 0;
        }
    }
}

}  // namespace rxmesh::detail::validation
