// Reference (serial CPU) curve patcher: the partition that curve_patches
// (rxmesh/patch/patcher.h) must produce, computed the plain way, with
// breadth-first growth level by level where the GPU relaxes to a fixpoint.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/patch/patcher.h"

namespace rxmesh::reference {

struct CurvePatches
{
    std::vector<std::uint32_t> face_patch;
    std::uint32_t              num_patches     = 0;
    std::uint32_t              num_components  = 0;
    std::uint32_t              max_patch_faces = 0;
};

//! \pre `faces` index `positions` (x, y, z per vertex) and are compact as
//!      import_mesh leaves them (every vertex used, no degenerate face);
//!      options.capacity > 0.
CurvePatches curve_patches(const std::vector<float>& positions, const std::vector<Triangle>& faces,
                           const PatcherOptions& options);

}  // namespace rxmesh::reference
