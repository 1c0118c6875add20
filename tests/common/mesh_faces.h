// The faces of a built RXMesh on the host, in its global numbering: what the
// GPU tests hand to the CPU reference.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "rxmesh/rxmesh.h"

namespace rxmesh::test {

inline std::vector<Triangle> faces_of(const RXMesh& mesh)
{
    std::vector<Triangle> faces(mesh.num_faces());
    const auto            flat = mesh.faces().to_host();
    std::memcpy(faces.data(), flat.data(), flat.size() * sizeof(std::uint32_t));
    return faces;
}

}  // namespace rxmesh::test
