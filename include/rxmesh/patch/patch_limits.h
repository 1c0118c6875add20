// PatchLimits: the largest per-patch sizes of a patch store, which is what a
// query block must fit (the query layer sizes its shared memory from them).
#pragma once

#include <cstdint>

namespace rxmesh {

struct PatchLimits
{
    std::uint32_t vertices    = 0;  // local (owned + ribbon)
    std::uint32_t edges       = 0;
    std::uint32_t faces       = 0;
    std::uint32_t owned_faces = 0;
    std::uint32_t ff_entries  = 0;  // FF outputs of a patch's owned faces
    std::uint32_t ribbon_vertices = 0;  // ribbon (not owned) elements of one patch
    std::uint32_t ribbon_edges    = 0;
    std::uint32_t ribbon_faces    = 0;
    //! Patches that are not oriented-manifold (see PatchStore): only when
    //! some exist must EF / FF blocks carve the general transpose's arrays.
    std::uint32_t irregular_patches = 0;
};

}  // namespace rxmesh
