// TriangleSoup: what every reader produces and every writer consumes.
//
// Host memory, plain arrays of 12-byte elements so that both arrays can be
// copied to the GPU as float3 / uint3 without conversion.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rxmesh {

using Vec3f    = std::array<float, 3>;
using Triangle = std::array<std::uint32_t, 3>;
using Color3   = std::array<std::uint8_t, 3>;

struct TriangleSoup
{
    //! Vertex positions, possibly with duplicates and unused entries.
    std::vector<Vec3f> positions;
    //! Triangles (polygons are fan-triangulated by the readers), each a
    //! triple of indices into positions, all < positions.size().
    std::vector<Triangle> faces;
    //! Triangles that repeated a vertex index and were dropped by the reader.
    std::uint64_t dropped_faces = 0;
    //! Optional per-vertex colors (empty, or one per position).
    std::vector<Color3> colors;

    std::size_t num_vertices() const { return positions.size(); }
    std::size_t num_faces() const { return faces.size(); }
};

}  // namespace rxmesh
