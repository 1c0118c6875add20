// What the distance apps (rxmesh-geodesic, rxmesh-heat) share: the source
// vertices given on the command line (input indices), checked on the host
// before any GPU work and mapped to the ids of the mesh the app built, and
// the summary of a distance field.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "json.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::app {

//! -s,--source: comma-separated input vertex indices into `sources`.
inline void add_sources_option(CLI::App& cli, std::vector<std::uint32_t>& sources)
{
    cli.add_option("-s,--source", sources, "source vertices (input indices, comma separated)")
        ->delimiter(',')
        ->capture_default_str();
}

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

//! The distance of a vertex no source reaches (and of one the mesh dropped).
inline constexpr float kUnreachable = std::numeric_limits<float>::infinity();

struct DistanceSummary
{
    std::size_t unreachable  = 0;
    double      max_distance = 0;
};

inline DistanceSummary summarize(const std::vector<float>& d)
{
    DistanceSummary s;
    for (float x : d) {
        if (std::isinf(x))
            ++s.unreachable;
        else
            s.max_distance = std::max(s.max_distance, double(x));
    }
    return s;
}

//! The summary's report keys: "max_distance", "unreachable_vertices".
inline Json& add_summary(Json& j, const DistanceSummary& s)
{
    return j.num("max_distance", s.max_distance).num("unreachable_vertices", double(s.unreachable));
}

}  // namespace rxmesh::app
