// The state validate()'s checks share, and the checks themselves: one
// function per contract of rxmesh/patch/validate.h, called in order by
// validate() (validate.cpp). Private to the patch layer; a namespace of
// their own keeps the short helper names apart from the rest of detail.
//
// Identities used by the checks: the local -> global map of patch p is
// "owned range then ribbon list"; a local edge is identified, inside its
// patch, by the two global vertices its M_EV names; the definition of global
// edge g is the M_EV of g in its owner patch.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/patch/validate.h"
#include "validate_incidence.h"

namespace rxmesh::detail::validation {

using u32           = std::uint32_t;
using u64           = std::uint64_t;
constexpr u32 kNone = ~0u;
// canon holds find_edge results next to "no owner" entries: one sentinel
static_assert(kNone == kNoEdge);

//! Counts every violation, keeps the first `max` of them.
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

inline std::string S(u64 x) { return std::to_string(x); }

//! The prefix of a message about patch p (tests look for it).
inline std::string P(u32 p) { return "patch " + S(p) + ": "; }

inline std::string pair_str(u32 a, u32 b) { return "(" + S(a) + ", " + S(b) + ")"; }

//! Patch whose owned range [off[p], off[p+1]) holds x; offsets well formed.
inline u32 owner_of(const std::vector<u32>& off, u32 x)
{
    return static_cast<u32>(std::upper_bound(off.begin(), off.end(), x) - off.begin()) - 1;
}

inline bool contains(const std::vector<u32>& sorted, u32 x)
{
    return std::binary_search(sorted.begin(), sorted.end(), x);
}

inline void sort_unique(std::vector<u32>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

struct ValidateContext
{
    ValidateContext(const HostPatchStore&        store,
                    const std::vector<Triangle>& faces,
                    u32                          num_vertices,
                    const Incidence&             mesh,
                    ValidationReport&            report,
                    std::size_t                  max_reports)
        : s(store),
          faces(faces),
          mesh(mesh),
          bad(report, max_reports),
          NP(store.num_patches),
          V(num_vertices),
          E(mesh.edges.size()),
          F(faces.size())
    {
    }

    const HostPatchStore&        s;
    const std::vector<Triangle>& faces;  // the store's global numbering
    const Incidence&             mesh;   // of `faces`
    Reporter                     bad;
    const u32                    NP;       // patches
    const u64                    V, E, F;  // mesh vertices, edges, faces

    // Set by assign_owners, once the offsets hold: the owner patch of each
    // face and vertex, from the owned ranges.
    std::vector<u32> f_patch, v_patch;
    // 0 for a patch whose ribbon entries or local ids are out of range: its
    // arrays cannot be followed, so every later check leaves it out.
    std::vector<char> patch_ok;
    // Set by check_owned_edges: each global edge's two global vertices per
    // its owner's M_EV, and the mesh edge that names (kNone: none, or the
    // owner is not ok); all_defined when every owner patch is ok.
    std::vector<std::array<u32, 2>> edge_def;
    std::vector<u32>                canon;
    bool                            all_defined = true;
};

//! One patch's local -> global maps and the locations of its arrays.
struct PatchView
{
    u32              own_v = 0, own_e = 0, own_f = 0;  // owned counts
    u32              nv = 0, ne = 0, nf = 0;           // local counts
    u64              ev_base = 0, fe_base = 0;         // first M_EV / M_FE entry
    std::vector<u32> lv2g, le2g, lf2g;
};

//! A patch that passed the entry and LocalIds checks, as global ids.
struct LocalPatch
{
    u32       p = 0;
    PatchView pv;
    // each local edge's global vertices, from this patch's M_EV, and the
    // mesh edge they name (kNoEdge: none)
    std::vector<std::array<u32, 2>> lev;
    std::vector<u32>                lcanon;
    // sorted, unique: local faces and vertices (global ids), local mesh edges
    std::vector<u32> local_faces, local_vertices, local_edges;
};

// ---- validate_store.cpp: the store's own structure ----------------------
bool check_offsets(ValidateContext& ctx);  // false: nothing else can be located
void assign_owners(ValidateContext& ctx);
void check_capacity_and_connected(ValidateContext& ctx);
void check_ribbon_entries(ValidateContext& ctx, u32 p);  // RibbonLists
void check_local_ids(ValidateContext& ctx, u32 p);

// ---- validate_ownership.cpp: global ownership --------------------------
void check_owned_edges(ValidateContext& ctx);  // EdgeOwnership, sets edge_def
void check_edge_ownership(ValidateContext& ctx);
void check_vertex_ownership(ValidateContext& ctx);

// ---- validate_patch.cpp: one ok patch against the mesh --------------------
LocalPatch local_patch(const ValidateContext& ctx, u32 p);
void       check_ribbon_edge_ownership(ValidateContext& ctx, const LocalPatch& lp);
void       check_face_geometry(ValidateContext& ctx, const LocalPatch& lp);
void       check_ribbon_faces(ValidateContext& ctx, const LocalPatch& lp);
void       check_ribbon_lists(ValidateContext& ctx, const LocalPatch& lp);  // local sets
void       check_one_ring(ValidateContext& ctx, const LocalPatch& lp);

}  // namespace rxmesh::detail::validation
