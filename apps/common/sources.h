// Source vertices given on an app's command line (input indices): checked
// on the host before any GPU work, and mapped to the ids of the mesh the app
// built (rxmesh-geodesic, rxmesh-heat).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::app {

//! \throw InvalidInputError for no source, one out of range or one in no
//!        face (the mesh drops such a vertex: no distance could reach it).
inline void validate_sources(const TriangleSoup& soup, const std::vector<std::uint32_t>& sources,
                             const std::string& name)
{
    if (sources.empty()) throw InvalidInputError("no source vertex given (--source)");
    std::vector<bool> used(soup.positions.size(), false);
    for (const Triangle& f : soup.faces)
        for (std::uint32_t v : f) used[v] = true;
    for (std::uint32_t s : sources) {
        if (s >= soup.positions.size())
            throw InvalidInputError(name + ": source vertex " + std::to_string(s) +
                                    " is out of range (the mesh has " +
                                    std::to_string(soup.positions.size()) + " vertices)");
        if (!used[s])
            throw InvalidInputError(name + ": source vertex " + std::to_string(s) +
                                    " belongs to no face");
    }
}

//! The mesh's ids `id(v)` of input vertices v (each in a face: validate_sources).
template <typename Id>
std::vector<std::uint32_t> mesh_ids(const std::vector<std::uint32_t>& input_ids, const Id& id)
{
    std::vector<std::uint32_t> out;
    out.reserve(input_ids.size());
    for (std::uint32_t v : input_ids) out.push_back(id(v));
    return out;
}

}  // namespace rxmesh::app
