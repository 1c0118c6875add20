// validate(): checks every build contract of the patch store (see
// patch_store.h) against the global mesh, reporting the first violations
// with ids. Host code; it downloads nothing itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/patch/patch_store.h"

namespace rxmesh {

//! The contracts, one enumerator each, so tests can ask for a specific one.
enum class Contract
{
    Offsets,          // offset arrays: sizes P+1, start 0, non-decreasing, totals = V, E, F
    Capacity,         // owned faces per patch <= capacity
    Connected,        // each patch's owned faces are edge-connected
    LocalIds,         // every M_EV / M_FE entry < the patch's local count
    FaceGeometry,     // M_FE -> M_EV of every local face reproduces its global vertices, in winding order
    EdgeOwnership,    // every mesh edge owned by exactly one patch; owned edges are real edges
    VertexOwnership,  // each owned vertex/edge is incident to an owned face of its patch
    RibbonFaces,      // ribbon_f(p) = faces of other patches sharing a vertex with an owned face of p
    RibbonLists,      // ribbon lists sorted, unique, owned elsewhere; local edges/vertices = those of local faces
    OneRing,          // every owned vertex's incident faces, edges and neighbours are local
};

// Where each check is reported (src/patch/validate_*.cpp):
// - Offsets also covers m_ev / m_fe sizes and faces.size() == F, and the
//   edge total is the mesh's edge count; any Offsets violation stops the
//   validation (nothing else can be located).
// - Connected also reports a patch that owns no face.
// - RibbonLists also reports a ribbon entry >= the global count; such a
//   patch, like one with a LocalIds violation, is left out of every later
//   check (its owned edges count as undefined).
// - LocalIds also reports local counts above 65535 vertices / faces or
//   32767 edges (see reference/patch_store.h).
// - Global edge g is defined by the M_EV of g in its owner patch.
//   EdgeOwnership: that definition is a mesh edge with the smaller global
//   vertex first, each mesh edge has exactly one definition, and every
//   ribbon copy's M_EV names the same two global vertices in the same order.
// - VertexOwnership: an unreferenced vertex must be owned by patch 0.
// - A local edge is identified by the global vertices of its own M_EV when
//   comparing local edge sets (RibbonLists) and one-rings (OneRing).
// \throw InvalidInputError when `faces` themselves are invalid (an index
//        >= num_vertices or a repeated vertex): that is the caller's input.
const char* to_string(Contract c);

struct Violation
{
    Contract    contract;
    std::string message;  // names the patch and the element ids
};

struct ValidationReport
{
    std::vector<Violation> violations;  // the first max_reports
    std::uint64_t          total = 0;   // all violations found

    bool ok() const { return total == 0; }
    bool has(Contract c) const
    {
        for (const auto& v : violations)
            if (v.contract == c)
                return true;
        return false;
    }
    std::string summary() const;  // one line per reported violation
};

//! `faces` are the mesh's faces in the store's global numbering (face g has
//! the global vertex ids faces[g], in winding order); `num_vertices` is the
//! global vertex count.
ValidationReport validate(const HostPatchStore&        store,
                          const std::vector<Triangle>& faces,
                          std::uint32_t                num_vertices,
                          std::size_t                  max_reports = 20);

}  // namespace rxmesh
