// Patch quality for bench_build: ribbon faces per owned face, largest patch,
// disconnected patches and validate() of a build; METIS k-way as the
// quality reference; the quality table over a directory of real meshes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/rxmesh.h"

namespace rxmesh::bench {

struct Quality
{
    double        ribbon_faces = 0;  // ribbon faces / faces
    std::uint32_t patches = 0, largest = 0, disconnected = 0;
    bool          valid = false;  // RXMesh::validate()
    std::string   to_json() const;
};

const char* method_name(PatcherMethod method);

//! Quality of `mesh`, built from `soup` with `options`; the disconnected
//! patches are counted on the patcher's own output for the same input (the
//! patchers are deterministic).
Quality assess_build(const TriangleSoup& soup, const RXMesh& mesh, const PatcherOptions& options);

//! METIS k-way with `parts` parts on the face graph of `soup`, its parts
//! built into a patch store for the ribbon: one line of text.
std::string metis_reference(const std::string& name, const TriangleSoup& soup,
                            std::uint32_t capacity, std::uint32_t parts);

//! Every readable mesh under `dir` with at most `max_faces` faces, built with
//! each method: prints the table and a summary, returns the rows as JSON.
std::string quality_table(const std::string& dir, std::uint64_t max_faces, std::uint32_t capacity,
                          const std::vector<PatcherMethod>& methods);

}  // namespace rxmesh::bench
