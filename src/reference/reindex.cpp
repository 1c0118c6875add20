// Reference re-indexing: the serial std::map baseline of Wald's "GPGPU-
// parallel re-indexing of triangle meshes with duplicate-vertex and
// unused-vertex removal".
//
// A vertex is USED when any input face references it (faces that turn out
// degenerate included, as in the GPU pipeline); unused vertices are dropped.
// New ids are given in order of first use, walking the faces in order and
// each face's corners in order. With `weld`, used vertices whose positions
// have the same bit patterns (so -0.0 != +0.0) share one new id. Faces that
// repeat a new id are dropped and counted.
#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {
namespace {

using BitKey = std::array<std::uint32_t, 3>;

BitKey bits_of(const Vec3f& p)
{
    BitKey key;
    for (int i = 0; i < 3; ++i)
        std::memcpy(&key[i], &p[i], sizeof(float));
    return key;
}

}  // namespace

Reindexed reindex(const std::vector<Vec3f>&    positions,
                  const std::vector<Triangle>& faces,
                  bool                         weld)
{
    constexpr std::uint32_t kUnused = ~0u;
    if (positions.size() >= std::size_t(kUnused))
        throw InvalidInputError("reindex: too many vertices (" +
                                std::to_string(positions.size()) + ")");

    // validate every index first: nothing is built from a bad input
    for (std::size_t f = 0; f < faces.size(); ++f)
        for (int k = 0; k < 3; ++k)
            if (faces[f][k] >= positions.size())
                throw InvalidInputError(
                    "reindex: face " + std::to_string(f) + " corner " +
                    std::to_string(k) + " references vertex " +
                    std::to_string(faces[f][k]) + " but there are only " +
                    std::to_string(positions.size()) + " vertices");

    Reindexed out;
    out.old_to_new.assign(positions.size(), kUnused);
    std::map<BitKey, std::uint32_t> by_position;  // weld only

    for (const Triangle& t : faces) {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = t[k];
            if (out.old_to_new[v] != kUnused)
                continue;
            const Vec3f& p = positions[v];
            if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
                throw InvalidInputError("reindex: vertex " + std::to_string(v) +
                                        " has a non-finite coordinate");
            const auto fresh = static_cast<std::uint32_t>(out.positions.size());
            if (weld) {
                const auto inserted = by_position.emplace(bits_of(p), fresh);
                out.old_to_new[v]   = inserted.first->second;
                if (inserted.second)
                    out.positions.push_back(p);
            } else {
                out.old_to_new[v] = fresh;
                out.positions.push_back(p);
            }
        }
    }

    out.faces.reserve(faces.size());
    for (const Triangle& t : faces) {
        const Triangle n = {out.old_to_new[t[0]], out.old_to_new[t[1]],
                            out.old_to_new[t[2]]};
        if (n[0] == n[1] || n[1] == n[2] || n[2] == n[0])
            ++out.dropped_faces;
        else
            out.faces.push_back(n);
    }
    return out;
}

}  // namespace rxmesh::reference
