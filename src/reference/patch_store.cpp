// Reference (serial CPU) patch store construction: the oracle of the GPU
// builder. Follows the normative rules of rxmesh/reference/patch_store.h
// literally: owners by a min over incident faces, new ids by a stable
// counting sort on the owner, ribbons by scanning the vertex -> face rows of
// the owned faces' corners, local ids by owned range / binary search in the
// sorted ribbon lists. Cost: one build_topology plus O(sum of local sizes
// * log) per patch.
#include "rxmesh/reference/patch_store.h"

#include <algorithm>
#include <string>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {
namespace {

using u32 = std::uint32_t;
constexpr u32 kNone = ~0u;

// Largest local counts of one patch (see the header: 0xFFFF is never a
// valid M_EV / M_FE entry, and (local edge << 1) | 1 must fit in 16 bits).
constexpr u32 kMaxLocalVertices = 0xFFFF;
constexpr u32 kMaxLocalFaces    = 0xFFFF;
constexpr u32 kMaxLocalEdges    = 0x7FFF;

//! New ids sorted by (owner, old id): a stable counting sort on the owner.
void renumber(const std::vector<u32>& owner,
              u32                     num_patches,
              std::vector<u32>&       offsets,
              std::vector<u32>&       new_to_old,
              std::vector<u32>&       old_to_new)
{
    offsets.assign(std::size_t(num_patches) + 1, 0);
    for (const u32 p : owner)
        ++offsets[std::size_t(p) + 1];
    for (u32 p = 0; p < num_patches; ++p)
        offsets[p + 1] += offsets[p];
    std::vector<u32> cursor(offsets.begin(), offsets.end() - 1);
    const auto       n = static_cast<u32>(owner.size());
    new_to_old.resize(n);
    old_to_new.resize(n);
    for (u32 i = 0; i < n; ++i) {
        const u32 id   = cursor[owner[i]]++;
        new_to_old[id] = i;
        old_to_new[i]  = id;
    }
}

//! Patch id of every new id, from the offsets.
std::vector<u32> owner_by_range(const std::vector<u32>& offsets)
{
    std::vector<u32> owner(offsets.back());
    for (u32 p = 0; p + 1 < offsets.size(); ++p)
        std::fill(owner.begin() + offsets[p], owner.begin() + offsets[p + 1], p);
    return owner;
}

void sort_unique(std::vector<u32>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

//! Throws unless a patch exists when there are vertices, every face's patch
//! id is < num_patches, and every patch owns at least one face.
void check_patch_ids(u32 V, const std::vector<u32>& face_patch, u32 num_patches)
{
    const auto F = static_cast<u32>(face_patch.size());
    if (num_patches == 0 && V > 0)
        throw InvalidInputError("build_patch_store: " + std::to_string(V) +
                                " vertices but no patch to own them");
    std::vector<u32> patch_size(num_patches, 0);
    for (u32 f = 0; f < F; ++f) {
        if (face_patch[f] >= num_patches)
            throw InvalidInputError("build_patch_store: face " + std::to_string(f) +
                                    " is assigned to patch " + std::to_string(face_patch[f]) +
                                    " but there are only " + std::to_string(num_patches) +
                                    " patches");
        ++patch_size[face_patch[f]];
    }
    for (u32 p = 0; p < num_patches; ++p)
        if (patch_size[p] == 0)
            throw InvalidInputError("build_patch_store: patch " + std::to_string(p) +
                                    " owns no face");
}

//! Owners of vertices and edges: the smallest patch among the incident faces
//! (patch 0 for an unreferenced vertex).
void find_owners(const Topology&              topo,
                 const std::vector<Triangle>& faces,
                 const std::vector<u32>&      face_patch,
                 std::vector<u32>&            v_owner,
                 std::vector<u32>&            e_owner)
{
    const auto F = static_cast<u32>(faces.size());
    v_owner.assign(topo.num_vertices, kNone);
    e_owner.assign(topo.ev.size(), kNone);
    for (u32 f = 0; f < F; ++f)
        for (int k = 0; k < 3; ++k) {
            u32& vo = v_owner[faces[f][k]];
            vo      = std::min(vo, face_patch[f]);
            u32& eo = e_owner[topo.fe[f][k] >> 1];
            eo      = std::min(eo, face_patch[f]);
        }
    for (u32& o : v_owner)
        if (o == kNone)
            o = 0;  // unreferenced vertex
}

//! The mesh in the new numbering, shared by the per-patch stages.
struct Renumbered
{
    std::vector<u32>                v_patch, e_patch, f_patch;  // owning patch of each new id
    std::vector<std::array<u32, 3>> fe;                         // as Topology::fe
    std::vector<std::array<u32, 2>> ev;                         // as Topology::ev
    std::vector<u32>                vf_off, vf;                 // vertex -> faces, ascending
};

//! New ids sorted by (owner, old id) into `out` (offsets, new -> old maps,
//! renumbered faces with their corner order kept); returns the owners and the
//! face -> edge and edge -> vertex maps in the new numbering.
Renumbered renumber_mesh(const Topology&              topo,
                         const std::vector<Triangle>& faces,
                         const std::vector<u32>&      face_patch,
                         const std::vector<u32>&      v_owner,
                         const std::vector<u32>&      e_owner,
                         PatchedMesh&                 out)
{
    const auto      F           = static_cast<u32>(faces.size());
    const auto      E           = static_cast<u32>(topo.ev.size());
    HostPatchStore& st          = out.store;
    const u32       num_patches = st.num_patches;
    Renumbered      nm;

    std::vector<u32> v_old_to_new, e_old_to_new, f_old_to_new;
    renumber(v_owner, num_patches, st.vertex_offsets, out.vertex_new_to_old, v_old_to_new);
    renumber(e_owner, num_patches, st.edge_offsets, out.edge_new_to_old, e_old_to_new);
    renumber(face_patch, num_patches, st.face_offsets, out.face_new_to_old, f_old_to_new);
    nm.v_patch = owner_by_range(st.vertex_offsets);
    nm.e_patch = owner_by_range(st.edge_offsets);
    nm.f_patch = owner_by_range(st.face_offsets);

    // renumbered faces (corner order kept), their edges, the edges' vertices
    out.faces.resize(F);
    nm.fe.resize(F);
    for (u32 g = 0; g < F; ++g) {
        const u32 f = out.face_new_to_old[g];
        for (int k = 0; k < 3; ++k)
            out.faces[g][k] = v_old_to_new[faces[f][k]];
        for (int k = 0; k < 3; ++k) {
            const u32 from = out.faces[g][k], to = out.faces[g][(k + 1) % 3];
            nm.fe[g][k] = (e_old_to_new[topo.fe[f][k] >> 1] << 1) | (from > to ? 1u : 0u);
        }
    }
    nm.ev.resize(E);
    for (u32 e = 0; e < E; ++e) {
        const auto& old = topo.ev[out.edge_new_to_old[e]];
        const u32   a = v_old_to_new[old[0]], b = v_old_to_new[old[1]];
        nm.ev[e]      = {std::min(a, b), std::max(a, b)};
    }
    return nm;
}

//! Vertex -> faces of the renumbered faces, rows ascending (counting sort).
void build_vertex_faces(u32 V, const std::vector<Triangle>& new_faces, Renumbered& nm)
{
    const auto        F      = static_cast<u32>(new_faces.size());
    std::vector<u32>& vf_off = nm.vf_off;
    std::vector<u32>& vf     = nm.vf;
    vf_off.assign(std::size_t(V) + 1, 0);
    vf.assign(std::size_t(3) * F, 0);
    for (const Triangle& t : new_faces)
        for (int k = 0; k < 3; ++k)
            ++vf_off[std::size_t(t[k]) + 1];
    for (u32 v = 0; v < V; ++v)
        vf_off[v + 1] += vf_off[v];
    std::vector<u32> cursor(vf_off.begin(), vf_off.end() - 1);
    for (u32 g = 0; g < F; ++g)
        for (int k = 0; k < 3; ++k)
            vf[cursor[new_faces[g][k]]++] = g;
}

//! Ribbon lists of patch p, each sorted and unique: rf = other patches'
//! faces sharing a vertex with an owned face; re / rv = the edges / vertices
//! of the local (owned and ribbon) faces that are owned elsewhere.
void collect_ribbons(u32                          p,
                     const HostPatchStore&        st,
                     const std::vector<Triangle>& new_faces,
                     const Renumbered&            nm,
                     std::vector<u32>&            rf,
                     std::vector<u32>&            re,
                     std::vector<u32>&            rv)
{
    const u32 f0 = st.face_offsets[p], f1 = st.face_offsets[p + 1];

    // ribbon faces: other patches' faces sharing a vertex with an owned face
    rv.clear();  // first: the vertices of the owned faces
    for (u32 g = f0; g < f1; ++g)
        for (int k = 0; k < 3; ++k)
            rv.push_back(new_faces[g][k]);
    sort_unique(rv);
    rf.clear();
    for (const u32 v : rv)
        for (u32 i = nm.vf_off[v]; i < nm.vf_off[v + 1]; ++i)
            if (nm.f_patch[nm.vf[i]] != p)
                rf.push_back(nm.vf[i]);
    sort_unique(rf);

    // ribbon edges / vertices: those of local faces owned elsewhere
    re.clear();
    rv.clear();
    auto collect = [&](u32 g) {
        for (int k = 0; k < 3; ++k) {
            const u32 e = nm.fe[g][k] >> 1, v = new_faces[g][k];
            if (nm.e_patch[e] != p)
                re.push_back(e);
            if (nm.v_patch[v] != p)
                rv.push_back(v);
        }
    };
    for (u32 g = f0; g < f1; ++g)
        collect(g);
    for (const u32 g : rf)
        collect(g);
    sort_unique(re);
    sort_unique(rv);
}

//! Elements patch p owns, from an owned-range offset array.
u32 owned(const std::vector<u32>& offsets, u32 p) { return offsets[p + 1] - offsets[p]; }

//! Appends patch p's ribbon lists to the store, after checking that its
//! local counts fit the 16-bit local ids.
void append_ribbons(u32                     p,
                    const std::vector<u32>& rf,
                    const std::vector<u32>& re,
                    const std::vector<u32>& rv,
                    HostPatchStore&         st)
{
    const std::uint64_t nf = std::uint64_t(owned(st.face_offsets, p)) + rf.size();
    const std::uint64_t ne = std::uint64_t(owned(st.edge_offsets, p)) + re.size();
    const std::uint64_t nv = std::uint64_t(owned(st.vertex_offsets, p)) + rv.size();
    if (nv > kMaxLocalVertices || ne > kMaxLocalEdges || nf > kMaxLocalFaces)
        throw InvalidInputError(
            "build_patch_store: patch " + std::to_string(p) + " needs " +
            std::to_string(nv) + " local vertices, " + std::to_string(ne) +
            " local edges and " + std::to_string(nf) +
            " local faces; 16-bit local ids allow at most 65535 vertices, 65535 faces and "
            "32767 edges (a vertex of very high valence, or too large a capacity)");

    st.ribbon_f.insert(st.ribbon_f.end(), rf.begin(), rf.end());
    st.ribbon_e.insert(st.ribbon_e.end(), re.begin(), re.end());
    st.ribbon_v.insert(st.ribbon_v.end(), rv.begin(), rv.end());
    st.ribbon_f_offsets.push_back(static_cast<u32>(st.ribbon_f.size()));
    st.ribbon_e_offsets.push_back(static_cast<u32>(st.ribbon_e.size()));
    st.ribbon_v_offsets.push_back(static_cast<u32>(st.ribbon_v.size()));
}

//! Appends patch p's M_EV and M_FE: owned entries first, then ribbon ones,
//! in local ids (owned range, else position in the sorted ribbon list).
void append_local_maps(u32                     p,
                       const Renumbered&       nm,
                       const std::vector<u32>& rf,
                       const std::vector<u32>& re,
                       const std::vector<u32>& rv,
                       HostPatchStore&         st)
{
    const u32 f0 = st.face_offsets[p], f1 = st.face_offsets[p + 1];
    const u32 e0 = st.edge_offsets[p], e1 = st.edge_offsets[p + 1];
    const u32 v0 = st.vertex_offsets[p], v1 = st.vertex_offsets[p + 1];

    auto local_v = [&](u32 v) -> std::uint16_t {
        if (v >= v0 && v < v1)
            return static_cast<std::uint16_t>(v - v0);
        const auto it = std::lower_bound(rv.begin(), rv.end(), v);
        return static_cast<std::uint16_t>((v1 - v0) + (it - rv.begin()));
    };
    auto local_e = [&](u32 e) -> std::uint16_t {
        if (e >= e0 && e < e1)
            return static_cast<std::uint16_t>(e - e0);
        const auto it = std::lower_bound(re.begin(), re.end(), e);
        return static_cast<std::uint16_t>((e1 - e0) + (it - re.begin()));
    };

    auto put_ev = [&](u32 e) {
        st.m_ev.push_back(local_v(nm.ev[e][0]));
        st.m_ev.push_back(local_v(nm.ev[e][1]));
    };
    for (u32 e = e0; e < e1; ++e)
        put_ev(e);
    for (const u32 e : re)
        put_ev(e);

    auto put_fe = [&](u32 g) {
        for (int k = 0; k < 3; ++k)
            st.m_fe.push_back(static_cast<std::uint16_t>((u32(local_e(nm.fe[g][k] >> 1)) << 1) |
                                                         (nm.fe[g][k] & 1u)));
    };
    for (u32 g = f0; g < f1; ++g)
        put_fe(g);
    for (const u32 g : rf)
        put_fe(g);
}

}  // namespace

PatchedMesh build_patch_store(std::uint32_t                     num_vertices,
                              const std::vector<Triangle>&      faces,
                              const std::vector<std::uint32_t>& face_patch,
                              std::uint32_t                     num_patches,
                              std::uint32_t                     capacity)
{
    // ---- preconditions ----------------------------------------------------
    if (face_patch.size() != faces.size())
        throw InvalidInputError("build_patch_store: " + std::to_string(face_patch.size()) +
                                " patch ids for " + std::to_string(faces.size()) + " faces");
    const Topology topo = build_topology(num_vertices, faces);  // validates the faces
    check_patch_ids(num_vertices, face_patch, num_patches);

    // ---- owners: smallest patch among the incident faces ---------------------
    std::vector<u32> v_owner, e_owner;
    find_owners(topo, faces, face_patch, v_owner, e_owner);

    // ---- new ids: sorted by (owner, old id) ------------------------------------
    PatchedMesh     out;
    HostPatchStore& st = out.store;
    st.num_patches     = num_patches;
    st.capacity        = capacity;
    Renumbered nm      = renumber_mesh(topo, faces, face_patch, v_owner, e_owner, out);
    build_vertex_faces(num_vertices, out.faces, nm);

    // ---- per patch: ribbons, M_EV, M_FE ------------------------------------------
    st.ribbon_v_offsets.assign(1, 0);
    st.ribbon_e_offsets.assign(1, 0);
    st.ribbon_f_offsets.assign(1, 0);
    std::vector<u32> rf, re, rv;  // reused from patch to patch
    for (u32 p = 0; p < num_patches; ++p) {
        collect_ribbons(p, st, out.faces, nm, rf, re, rv);
        append_ribbons(p, rf, re, rv, st);
        append_local_maps(p, nm, rf, re, rv, st);
    }
    return out;
}

std::vector<std::uint32_t> bfs_patches(std::uint32_t                num_vertices,
                                       const std::vector<Triangle>& faces,
                                       std::uint32_t                capacity,
                                       std::uint32_t&               num_patches)
{
    if (capacity == 0)
        throw InvalidInputError("bfs_patches: capacity must be positive");
    const Topology   topo = build_topology(num_vertices, faces);
    const auto       F    = static_cast<u32>(faces.size());
    std::vector<u32> patch(F, kNone), queue;
    queue.reserve(capacity);
    num_patches = 0;
    for (u32 seed = 0; seed < F; ++seed) {
        if (patch[seed] != kNone)
            continue;
        const u32 p = num_patches++;
        patch[seed] = p;
        u32 count   = 1;
        queue.assign(1, seed);
        for (std::size_t head = 0; head < queue.size() && count < capacity; ++head) {
            const u32 f = queue[head];
            for (u32 i = topo.ff.offsets[f]; i < topo.ff.offsets[f + 1] && count < capacity; ++i) {
                const u32 n = topo.ff.indices[i];
                if (patch[n] == kNone) {
                    patch[n] = p;
                    ++count;
                    queue.push_back(n);
                }
            }
        }
    }
    return patch;
}

}  // namespace rxmesh::reference
