// validate(): checks a HostPatchStore against reference::build_topology of
// the renumbered faces. Independent of any builder: everything is
// reconstructed from the store itself (owned ranges, ribbon lists, M_EV,
// M_FE). Defensive: every size is checked before anything is indexed; a
// patch whose ribbon entries or local ids are out of range is reported and
// left out of the later checks.
//
// Identities used below: the local -> global map of patch p is "owned range
// then ribbon list"; a local edge is identified, inside its patch, by the two
// global vertices its M_EV names; the definition of global edge g is the M_EV
// of g in its owner patch.
#include "rxmesh/patch/validate.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <sstream>
#include <string>

#include "rxmesh/reference/topology.h"

namespace rxmesh {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr u32 kNone = ~0u;

constexpr u64 kMaxLocalVertices = 0xFFFF;
constexpr u64 kMaxLocalFaces    = 0xFFFF;
constexpr u64 kMaxLocalEdges    = 0x7FFF;

class Reporter
{
   public:
    Reporter(ValidationReport& report, std::size_t max) : m_report(report), m_max(max) {}

    void operator()(Contract c, std::string message)
    {
        ++m_report.total;
        if (m_report.violations.size() < m_max)
            m_report.violations.push_back({c, std::move(message)});
    }

   private:
    ValidationReport& m_report;
    std::size_t       m_max;
};

std::string S(u64 x) { return std::to_string(x); }

std::string P(u32 p) { return "patch " + S(p) + ": "; }

std::string pair_str(u32 a, u32 b) { return "(" + S(a) + ", " + S(b) + ")"; }

//! Patch whose owned range [off[p], off[p+1]) holds x; offsets well formed.
u32 owner_of(const std::vector<u32>& off, u32 x)
{
    return static_cast<u32>(std::upper_bound(off.begin(), off.end(), x) - off.begin()) - 1;
}

bool contains(const std::vector<u32>& sorted, u32 x)
{
    return std::binary_search(sorted.begin(), sorted.end(), x);
}

void sort_unique(std::vector<u32>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

//! Canonical edge id of (a, b) in topo, or kNone when it is no mesh edge.
u32 find_edge(const reference::Topology& topo, u32 a, u32 b)
{
    const std::array<u32, 2> key = {std::min(a, b), std::max(a, b)};
    const auto it = std::lower_bound(topo.ev.begin(), topo.ev.end(), key);
    if (it == topo.ev.end() || *it != key)
        return kNone;
    return static_cast<u32>(it - topo.ev.begin());
}

//! One patch's local -> global maps and the locations of its arrays.
struct PatchView
{
    u32 own_v = 0, own_e = 0, own_f = 0;   // owned counts
    u32 nv = 0, ne = 0, nf = 0;            // local counts
    u64 ev_base = 0, fe_base = 0;          // first M_EV / M_FE entry
    std::vector<u32> lv2g, le2g, lf2g;
};

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

}  // namespace

const char* to_string(Contract c)
{
    switch (c) {
        case Contract::Offsets: return "Offsets";
        case Contract::Capacity: return "Capacity";
        case Contract::Connected: return "Connected";
        case Contract::LocalIds: return "LocalIds";
        case Contract::FaceGeometry: return "FaceGeometry";
        case Contract::EdgeOwnership: return "EdgeOwnership";
        case Contract::VertexOwnership: return "VertexOwnership";
        case Contract::RibbonFaces: return "RibbonFaces";
        case Contract::RibbonLists: return "RibbonLists";
        case Contract::OneRing: return "OneRing";
    }
    return "Unknown";
}

std::string ValidationReport::summary() const
{
    std::ostringstream os;
    for (const auto& v : violations)
        os << '[' << to_string(v.contract) << "] " << v.message << '\n';
    if (total > violations.size())
        os << "... and " << (total - violations.size()) << " more violations\n";
    return os.str();
}

ValidationReport validate(const HostPatchStore&        store,
                          const std::vector<Triangle>& faces,
                          std::uint32_t                num_vertices,
                          std::size_t                  max_reports)
{
    ValidationReport report;
    Reporter         bad(report, max_reports);
    const HostPatchStore& s = store;

    // Throws InvalidInputError when `faces` itself is invalid (the caller's
    // input, not the store).
    const reference::Topology topo = reference::build_topology(num_vertices, faces);
    const u32 NP = s.num_patches;
    const u64 V = num_vertices, F = faces.size(), E = topo.ev.size();

    // ==== Offsets ==========================================================
    bool offsets_ok = true;
    auto check_offsets = [&](const std::vector<u32>& off, const char* name, u64 total,
                             const char* what) {
        if (off.size() != u64(NP) + 1) {
            bad(Contract::Offsets, std::string(name) + " has " + S(off.size()) +
                                       " entries, expected num_patches + 1 = " + S(u64(NP) + 1));
            offsets_ok = false;
            return;
        }
        if (off[0] != 0) {
            bad(Contract::Offsets, std::string(name) + "[0] = " + S(off[0]) + ", expected 0");
            offsets_ok = false;
        }
        for (u32 p = 0; p < NP; ++p)
            if (off[p + 1] < off[p]) {
                bad(Contract::Offsets, P(p) + std::string(name) + "[" + S(p + 1) + "] = " +
                                           S(off[p + 1]) + " < " + name + "[" + S(p) +
                                           "] = " + S(off[p]) + " (offsets decrease)");
                offsets_ok = false;
            }
        if (off[NP] != total) {
            bad(Contract::Offsets, std::string(name) + " ends at " + S(off[NP]) + " but there are " +
                                       S(total) + " " + what);
            offsets_ok = false;
        }
    };
    check_offsets(s.vertex_offsets, "vertex_offsets", V, "vertices");
    check_offsets(s.edge_offsets, "edge_offsets", E, "mesh edges");
    check_offsets(s.face_offsets, "face_offsets", F, "faces");
    check_offsets(s.ribbon_v_offsets, "ribbon_v_offsets", s.ribbon_v.size(), "ribbon_v entries");
    check_offsets(s.ribbon_e_offsets, "ribbon_e_offsets", s.ribbon_e.size(), "ribbon_e entries");
    check_offsets(s.ribbon_f_offsets, "ribbon_f_offsets", s.ribbon_f.size(), "ribbon_f entries");
    if (s.m_fe.size() != 3 * (F + s.ribbon_f.size())) {
        bad(Contract::Offsets, "m_fe has " + S(s.m_fe.size()) + " entries, expected 3 * (" + S(F) +
                                   " faces + " + S(s.ribbon_f.size()) + " ribbon faces) = " +
                                   S(3 * (F + s.ribbon_f.size())));
        offsets_ok = false;
    }
    if (s.m_ev.size() != 2 * (E + s.ribbon_e.size())) {
        bad(Contract::Offsets, "m_ev has " + S(s.m_ev.size()) + " entries, expected 2 * (" + S(E) +
                                   " edges + " + S(s.ribbon_e.size()) + " ribbon edges) = " +
                                   S(2 * (E + s.ribbon_e.size())));
        offsets_ok = false;
    }
    if (!offsets_ok)
        return report;  // nothing below can be located

    // Owner patch of every global element, from the owned ranges.
    std::vector<u32> f_patch(F), v_patch(V);
    for (u32 p = 0; p < NP; ++p) {
        std::fill(f_patch.begin() + s.face_offsets[p], f_patch.begin() + s.face_offsets[p + 1], p);
        std::fill(v_patch.begin() + s.vertex_offsets[p], v_patch.begin() + s.vertex_offsets[p + 1],
                  p);
    }

    // ==== Capacity, Connected ============================================
    {
        std::vector<char> seen(F, 0);
        std::vector<u32>  queue;
        for (u32 p = 0; p < NP; ++p) {
            const u32 f0 = s.face_offsets[p], f1 = s.face_offsets[p + 1];
            if (f1 - f0 > s.capacity)
                bad(Contract::Capacity, P(p) + "owns " + S(f1 - f0) +
                                            " faces, more than the capacity " + S(s.capacity));
            if (f0 == f1) {
                bad(Contract::Connected, P(p) + "owns no face");
                continue;
            }
            queue.assign(1, f0);
            seen[f0] = 1;
            for (std::size_t head = 0; head < queue.size(); ++head) {
                const u32 f = queue[head];
                for (u32 i = topo.ff.offsets[f]; i < topo.ff.offsets[f + 1]; ++i) {
                    const u32 n = topo.ff.indices[i];
                    if (n >= f0 && n < f1 && !seen[n]) {
                        seen[n] = 1;
                        queue.push_back(n);
                    }
                }
            }
            if (queue.size() != f1 - f0) {
                u32 first = f0;
                while (seen[first])
                    ++first;
                bad(Contract::Connected,
                    P(p) + "owned faces are not edge-connected: face " + S(first) + " (local " +
                        S(first - f0) + ") is not reachable from face " + S(f0) + " (" +
                        S(queue.size()) + " of " + S(f1 - f0) + " faces reachable)");
            }
        }
    }

    // ==== per patch structure: ribbon entries, LocalIds =====================
    std::vector<char> patch_ok(NP, 1);
    for (u32 p = 0; p < NP; ++p) {
        auto check_ribbon = [&](const std::vector<u32>& list, const std::vector<u32>& roff,
                                const std::vector<u32>& own, const char* name, const char* kind,
                                u64 total) {
            const u32 owned = own[p + 1] - own[p];
            for (u32 i = roff[p]; i < roff[p + 1]; ++i) {
                const u32 g = list[i], local = owned + (i - roff[p]);
                if (g >= total) {
                    bad(Contract::RibbonLists, P(p) + name + "[" + S(i) + "] = " + kind + " " +
                                                   S(g) + " (local " + S(local) +
                                                   ") is out of range: there are " + S(total));
                    patch_ok[p] = 0;
                    continue;
                }
                if (g >= own[p] && g < own[p + 1])
                    bad(Contract::RibbonLists, P(p) + "ribbon " + kind + " " + S(g) + " (local " +
                                                   S(local) + ") is owned by the patch itself");
                if (i > roff[p] && list[i - 1] >= g)
                    bad(Contract::RibbonLists,
                        P(p) + name + " is not sorted and unique: " + kind + " " + S(g) +
                            " (local " + S(local) + ") follows " + kind + " " + S(list[i - 1]));
            }
        };
        check_ribbon(s.ribbon_v, s.ribbon_v_offsets, s.vertex_offsets, "ribbon_v", "vertex", V);
        check_ribbon(s.ribbon_e, s.ribbon_e_offsets, s.edge_offsets, "ribbon_e", "edge", E);
        check_ribbon(s.ribbon_f, s.ribbon_f_offsets, s.face_offsets, "ribbon_f", "face", F);

        const u64 nv = u64(s.vertex_offsets[p + 1] - s.vertex_offsets[p]) +
                       (s.ribbon_v_offsets[p + 1] - s.ribbon_v_offsets[p]);
        const u64 ne = u64(s.edge_offsets[p + 1] - s.edge_offsets[p]) +
                       (s.ribbon_e_offsets[p + 1] - s.ribbon_e_offsets[p]);
        const u64 nf = u64(s.face_offsets[p + 1] - s.face_offsets[p]) +
                       (s.ribbon_f_offsets[p + 1] - s.ribbon_f_offsets[p]);
        if (nv > kMaxLocalVertices || ne > kMaxLocalEdges || nf > kMaxLocalFaces)
            bad(Contract::LocalIds, P(p) + S(nv) + " local vertices, " + S(ne) +
                                        " local edges, " + S(nf) +
                                        " local faces; 16-bit local ids allow at most 65535 "
                                        "vertices, 32767 edges, 65535 faces");
        const u64 ev_base = 2 * (u64(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
        const u64 fe_base = 3 * (u64(s.face_offsets[p]) + s.ribbon_f_offsets[p]);
        const u32 own_e   = s.edge_offsets[p + 1] - s.edge_offsets[p];
        const u32 own_f   = s.face_offsets[p + 1] - s.face_offsets[p];
        auto edge_name = [&](u64 l) {
            const u32 g = l < own_e ? s.edge_offsets[p] + u32(l)
                                    : s.ribbon_e[s.ribbon_e_offsets[p] + (l - own_e)];
            return "edge " + S(g) + " (local " + S(l) + ")";
        };
        auto face_name = [&](u64 l) {
            const u32 g = l < own_f ? s.face_offsets[p] + u32(l)
                                    : s.ribbon_f[s.ribbon_f_offsets[p] + (l - own_f)];
            return "face " + S(g) + " (local " + S(l) + ")";
        };
        for (u64 i = 0; i < 2 * ne; ++i) {
            const u32 lv = s.m_ev[ev_base + i];
            if (lv >= nv) {
                bad(Contract::LocalIds, P(p) + "M_EV of " + edge_name(i / 2) + " names local vertex " +
                                            S(lv) + " but the patch has " + S(nv) +
                                            " local vertices");
                patch_ok[p] = 0;
            }
        }
        for (u64 i = 0; i < 3 * nf; ++i) {
            const u32 le = s.m_fe[fe_base + i] >> 1;
            if (le >= ne) {
                bad(Contract::LocalIds, P(p) + "M_FE of " + face_name(i / 3) + " side " +
                                            S(i % 3) + " names local edge " + S(le) +
                                            " but the patch has " + S(ne) + " local edges");
                patch_ok[p] = 0;
            }
        }
    }

    // ==== global edges: definitions from the owners' M_EV ====================
    std::vector<std::array<u32, 2>> edge_def(E, {kNone, kNone});
    std::vector<u32>                canon(E, kNone);  // mesh edge id of each global edge
    bool                            all_defined = true;
    for (u32 p = 0; p < NP; ++p) {
        if (!patch_ok[p]) {
            all_defined = all_defined && s.edge_offsets[p] == s.edge_offsets[p + 1];
            continue;
        }
        const u32 v0 = s.vertex_offsets[p], own_v = s.vertex_offsets[p + 1] - v0;
        const u64 ev_base = 2 * (u64(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
        auto lv2g = [&](u32 l) {
            return l < own_v ? v0 + l : s.ribbon_v[s.ribbon_v_offsets[p] + (l - own_v)];
        };
        for (u32 g = s.edge_offsets[p]; g < s.edge_offsets[p + 1]; ++g) {
            const u64 l = g - s.edge_offsets[p];
            const u32 a = lv2g(s.m_ev[ev_base + 2 * l]), b = lv2g(s.m_ev[ev_base + 2 * l + 1]);
            edge_def[g] = {a, b};
            canon[g]    = find_edge(topo, a, b);
            if (canon[g] == kNone)
                bad(Contract::EdgeOwnership, P(p) + "owned edge " + S(g) + " (local " + S(l) +
                                                 ") = vertices " + pair_str(a, b) +
                                                 " is not a mesh edge");
            else if (a > b)
                bad(Contract::EdgeOwnership, P(p) + "M_EV of owned edge " + S(g) + " (local " +
                                                 S(l) + ") lists vertices " + pair_str(a, b) +
                                                 ", larger global id first");
        }
    }

    // ==== EdgeOwnership: each mesh edge owned exactly once =====================
    {
        std::vector<u32> owned_as(E, kNone);
        for (u32 g = 0; g < E; ++g) {
            const u32 c = canon[g];
            if (c == kNone)
                continue;
            if (owned_as[c] != kNone) {
                const u32 h = owned_as[c];
                bad(Contract::EdgeOwnership,
                    "mesh edge " + pair_str(topo.ev[c][0], topo.ev[c][1]) +
                        " is owned twice: as edge " + S(h) + " of patch " +
                        S(owner_of(s.edge_offsets, h)) + " and as edge " + S(g) + " of patch " +
                        S(owner_of(s.edge_offsets, g)));
            } else {
                owned_as[c] = g;
            }
        }
        if (all_defined)
            for (u32 c = 0; c < E; ++c)
                if (owned_as[c] == kNone)
                    bad(Contract::EdgeOwnership, "mesh edge " +
                                                     pair_str(topo.ev[c][0], topo.ev[c][1]) +
                                                     " is owned by no patch");
    }

    // ==== VertexOwnership: owned vertices / edges touch an owned face ==========
    for (u32 v = 0; v < V; ++v) {
        const u32 p = v_patch[v];
        const u32 b = topo.vf.offsets[v], e = topo.vf.offsets[v + 1];
        if (b == e) {
            if (p != 0)
                bad(Contract::VertexOwnership,
                    P(p) + "owns vertex " + S(v) + " (local " + S(v - s.vertex_offsets[p]) +
                        "), which no face uses; unreferenced vertices belong to patch 0");
            continue;
        }
        bool found = false;
        for (u32 i = b; i < e && !found; ++i)
            found = f_patch[topo.vf.indices[i]] == p;
        if (!found)
            bad(Contract::VertexOwnership, P(p) + "owns vertex " + S(v) + " (local " +
                                               S(v - s.vertex_offsets[p]) +
                                               ") but none of its faces");
    }
    for (u32 g = 0; g < E; ++g) {
        const u32 c = canon[g];
        if (c == kNone)
            continue;
        const u32 p     = owner_of(s.edge_offsets, g);
        bool      found = false;
        for (u32 i = topo.ef.offsets[c]; i < topo.ef.offsets[c + 1] && !found; ++i)
            found = f_patch[topo.ef.indices[i]] == p;
        if (!found)
            bad(Contract::VertexOwnership,
                P(p) + "owns edge " + S(g) + " (local " + S(g - s.edge_offsets[p]) + ") = " +
                    pair_str(edge_def[g][0], edge_def[g][1]) + " but none of its faces");
    }

    // ==== per patch: FaceGeometry, ribbons, local sets, one-rings ==============
    std::vector<u32> expected, actual, missing, extra;
    for (u32 p = 0; p < NP; ++p) {
        if (!patch_ok[p])
            continue;
        const PatchView pv = view_of(s, p);
        const u32       v0 = s.vertex_offsets[p];

        // each local edge's vertices (global ids), from this patch's M_EV
        std::vector<std::array<u32, 2>> lev(pv.ne);
        std::vector<u32>                lcanon(pv.ne);
        for (u32 l = 0; l < pv.ne; ++l) {
            lev[l]    = {pv.lv2g[s.m_ev[pv.ev_base + 2 * l]], pv.lv2g[s.m_ev[pv.ev_base + 2 * l + 1]]};
            lcanon[l] = find_edge(topo, lev[l][0], lev[l][1]);
        }

        // ribbon edges agree with their owner's definition (EdgeOwnership)
        for (u32 l = pv.own_e; l < pv.ne; ++l) {
            const u32 g = pv.le2g[l];
            const u32 a = lev[l][0], b = lev[l][1];
            if (edge_def[g][0] != kNone) {
                if (edge_def[g] != lev[l])
                    bad(Contract::EdgeOwnership,
                        P(p) + "ribbon edge " + S(g) + " (local " + S(l) + ") has vertices " +
                            pair_str(a, b) + " but its owner patch " +
                            S(owner_of(s.edge_offsets, g)) + " defines it as " +
                            pair_str(edge_def[g][0], edge_def[g][1]));
            } else if (lcanon[l] == kNone || a > b) {
                bad(Contract::EdgeOwnership, P(p) + "ribbon edge " + S(g) + " (local " + S(l) +
                                                 ") has vertices " + pair_str(a, b) +
                                                 ", not a mesh edge smaller id first");
            }
        }

        // FaceGeometry: M_FE -> M_EV walks each local face's sides in order
        for (u32 lf = 0; lf < pv.nf; ++lf) {
            const u32       g = pv.lf2g[lf];
            const Triangle& t = faces[g];
            for (u32 k = 0; k < 3; ++k) {
                const u32 entry = s.m_fe[pv.fe_base + 3 * lf + k];
                const u32 le = entry >> 1, flip = entry & 1u;
                const u32 from = flip ? lev[le][1] : lev[le][0];
                const u32 to   = flip ? lev[le][0] : lev[le][1];
                if (from != t[k] || to != t[(k + 1) % 3])
                    bad(Contract::FaceGeometry,
                        P(p) + "face " + S(g) + " (local " + S(lf) + ") side " + S(k) +
                            ": M_FE names edge " + S(pv.le2g[le]) + " (local " + S(le) +
                            ") flip " + S(flip) + ", walking " + pair_str(from, to) +
                            ", but the face walks " + pair_str(t[k], t[(k + 1) % 3]));
            }
        }

        auto diff = [&](const char* kind, Contract c, const std::string& why_missing,
                        const std::string& why_extra, bool skip_owned_extra,
                        const std::vector<u32>& own_off) {
            missing.clear();
            extra.clear();
            std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                                std::back_inserter(missing));
            std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                                std::back_inserter(extra));
            for (const u32 g : missing)
                bad(c, P(p) + kind + " " + S(g) + " " + why_missing);
            for (const u32 g : extra)
                if (!(skip_owned_extra && g >= own_off[p] && g < own_off[p + 1]))
                    bad(c, P(p) + kind + " " + S(g) + " " + why_extra);
        };

        // RibbonFaces: faces of other patches sharing a vertex with an owned face
        actual.clear();  // the vertices of the owned faces
        for (u32 g = s.face_offsets[p]; g < s.face_offsets[p + 1]; ++g)
            for (u32 k = 0; k < 3; ++k)
                actual.push_back(faces[g][k]);
        sort_unique(actual);
        expected.clear();
        for (const u32 v : actual)
            for (u32 i = topo.vf.offsets[v]; i < topo.vf.offsets[v + 1]; ++i)
                if (f_patch[topo.vf.indices[i]] != p)
                    expected.push_back(topo.vf.indices[i]);
        sort_unique(expected);
        actual.assign(pv.lf2g.begin() + pv.own_f, pv.lf2g.end());
        sort_unique(actual);
        diff("face", Contract::RibbonFaces,
             "shares a vertex with an owned face but is not in the ribbon",
             "is in the ribbon but shares no vertex with an owned face", true, s.face_offsets);

        std::vector<u32> local_faces = pv.lf2g;
        sort_unique(local_faces);

        // RibbonLists: local vertices = those of local faces (+ owned unreferenced)
        expected.clear();
        for (const u32 g : pv.lf2g)
            for (u32 k = 0; k < 3; ++k)
                expected.push_back(faces[g][k]);
        for (u32 v = v0; v < s.vertex_offsets[p + 1]; ++v)
            if (topo.vf.offsets[v] == topo.vf.offsets[v + 1])
                expected.push_back(v);
        sort_unique(expected);
        actual = pv.lv2g;
        sort_unique(actual);
        diff("vertex", Contract::RibbonLists, "is used by a local face but is not a local vertex",
             "is a local vertex but no local face uses it", false, s.vertex_offsets);
        const std::vector<u32> local_vertices = actual;

        // RibbonLists: local edges = those of local faces (as mesh edges)
        expected.clear();
        for (const u32 g : pv.lf2g)
            for (u32 k = 0; k < 3; ++k)
                expected.push_back(topo.fe[g][k] >> 1);
        sort_unique(expected);
        actual.clear();
        for (const u32 c : lcanon)
            if (c != kNone)
                actual.push_back(c);
        std::sort(actual.begin(), actual.end());
        for (std::size_t i = 1; i < actual.size(); ++i)
            if (actual[i] == actual[i - 1])
                bad(Contract::RibbonLists, P(p) + "mesh edge " +
                                               pair_str(topo.ev[actual[i]][0], topo.ev[actual[i]][1]) +
                                               " is more than one local edge");
        actual.erase(std::unique(actual.begin(), actual.end()), actual.end());
        missing.clear();
        extra.clear();
        std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                            std::back_inserter(missing));
        std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                            std::back_inserter(extra));
        for (const u32 c : missing)
            bad(Contract::RibbonLists, P(p) + "mesh edge " + pair_str(topo.ev[c][0], topo.ev[c][1]) +
                                           " is used by a local face but is not a local edge");
        for (const u32 c : extra)
            bad(Contract::RibbonLists, P(p) + "mesh edge " + pair_str(topo.ev[c][0], topo.ev[c][1]) +
                                           " is a local edge but no local face uses it");
        const std::vector<u32> local_edges = actual;

        // OneRing: every owned vertex's faces, edges and neighbours are local
        for (u32 v = v0; v < s.vertex_offsets[p + 1]; ++v) {
            const std::string who = "owned vertex " + S(v) + " (local " + S(v - v0) + ")";
            for (u32 i = topo.vf.offsets[v]; i < topo.vf.offsets[v + 1]; ++i)
                if (!contains(local_faces, topo.vf.indices[i]))
                    bad(Contract::OneRing, P(p) + "face " + S(topo.vf.indices[i]) +
                                               " incident to " + who + " is not a local face");
            for (u32 i = topo.ve.offsets[v]; i < topo.ve.offsets[v + 1]; ++i) {
                const u32 c = topo.ve.indices[i];
                if (!contains(local_edges, c))
                    bad(Contract::OneRing, P(p) + "mesh edge " +
                                               pair_str(topo.ev[c][0], topo.ev[c][1]) +
                                               " incident to " + who + " is not a local edge");
            }
            for (u32 i = topo.vv.offsets[v]; i < topo.vv.offsets[v + 1]; ++i)
                if (!contains(local_vertices, topo.vv.indices[i]))
                    bad(Contract::OneRing, P(p) + "vertex " + S(topo.vv.indices[i]) +
                                               " adjacent to " + who + " is not a local vertex");
        }
    }
    return report;
}

}  // namespace rxmesh
