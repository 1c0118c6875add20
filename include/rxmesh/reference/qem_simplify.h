// Serial quadric-error simplification (Garland and Heckbert 1997), the
// oracle of the GPU simplifier of issue 30: obviously correct, for small
// meshes (every collapse goes through reference::EditableMesh, whose
// refusals it inherits: non-manifold elements, the link condition, folds).
//
// - Each vertex starts with the quadric of its faces' planes, each weighted
//   by the face's area, plus, for each boundary edge, the plane through the
//   edge perpendicular to its face, weighted by boundary_weight x the
//   edge's squared length (the boundary keeps its shape).
// - An edge's cost is the minimum of the summed quadric: at the optimal
//   point when its 3x3 system is well conditioned, else at the better of
//   the two ends and the midpoint.
// - Collapses go cheapest first, by the cost plus kShapeTieBreak x (the
//   input's mean edge length)^4 x the cosine of the new faces' smallest
//   angle (among equal costs, as on flat regions, the best-shaped first;
//   ties: smaller vertex pair); one that folds a face or fails the sliver
//   guard (no new face with an angle below min_angle_degrees unless the
//   faces it replaces had one as small), or that the mesh refuses, is tried
//   again only after a neighbour changes. It stops at the
//   target face count or when no collapse is left, and says which.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! A symmetric 4x4 quadric: q(p) = p^T A p + 2 b.p + c for p in R^3.
struct Quadric
{
    std::array<double, 6> a = {0, 0, 0, 0, 0, 0};  // xx xy xz yy yz zz
    std::array<double, 3> b = {0, 0, 0};
    double                c = 0;

    //! weight x (n.p + d)^2, for a unit normal n.
    static Quadric plane(const std::array<double, 3>& n, double d, double weight);
    Quadric&       operator+=(const Quadric& o);
    double         evaluate(const std::array<double, 3>& p) const;
    //! The minimizer when A is well conditioned (|det| above a relative bound).
    bool optimum(std::array<double, 3>* p) const;
};

//! The weight of the shape tie-break, relative to (mean edge length)^4.
constexpr double kShapeTieBreak = 1e-5;

struct SimplifyOptions
{
    std::uint32_t target_faces      = 0;
    double        boundary_weight   = 1000;
    double        min_angle_degrees = 5;  // the sliver guard, in [0, 60); 0: off
};

struct SimplifyReport
{
    std::uint32_t faces = 0, vertices = 0, collapses = 0;
    bool          reached_target = false;  // else: no collapse was left
    double        max_cost       = 0;      // the largest cost of an applied collapse
    std::string   stop_reason() const
    {
        return reached_target ? "target reached" : "no valid collapse left";
    }
};

//! \throw InvalidInputError for min_angle_degrees out of range.
//! The simplified mesh, compact (alive vertices in input order, then none
//! new: collapses only move and remove vertices).
TriangleSoup qem_simplify(const TriangleSoup& input, const SimplifyOptions& options,
                          SimplifyReport* report = nullptr);

}  // namespace rxmesh::reference
