// The meshes bench_query_compare times, in its three input orders:
//   given     the file's order (welded bit-exactly, unused vertices dropped)
//   sorted    vertices and faces renumbered by RXMesh's patches
//   shuffled  vertices and faces randomly permuted
// and the 1-to-4 refinement that makes the larger levels.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {
class RXMesh;
struct BuildOptions;
}  // namespace rxmesh

namespace rxmesh::bench::query_compare {

struct IndexedMesh
{
    std::vector<Vec3f>    positions;
    std::vector<Triangle> faces;
    TriangleSoup          soup() const
    {
        TriangleSoup s;
        s.positions = positions;
        s.faces     = faces;
        return s;
    }
};

//! The file's mesh in the file's order (reference::reindex would renumber
//! vertices by first use, which is already a reordering): vertices with
//! bit-identical positions merged (first copy kept), faces that repeat a
//! vertex dropped, unused vertices dropped; the survivors keep their relative
//! order.
IndexedMesh compact_in_input_order(const TriangleSoup& soup);

//! m with its vertices and faces randomly permuted (std::mt19937(seed)).
IndexedMesh shuffled(const IndexedMesh& m, std::uint32_t seed);

//! The mesh in RXMesh's global (patch) numbering.
IndexedMesh sorted_by_patch(const RXMesh& mesh);

//! The sorted order of `given`: renumbered by the patches RXMesh builds
//! from it with `build`.
IndexedMesh sorted_order(const IndexedMesh& given, const BuildOptions& build);

//! Refines m 1-to-4 (generate::refine) until level reaches want; level
//! counts the refinements m has had so far.
void refine_to(IndexedMesh& m, int& level, int want);

}  // namespace rxmesh::bench::query_compare
