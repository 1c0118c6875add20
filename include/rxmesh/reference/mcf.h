// Reference terms of implicit mean curvature flow, serial, in double: the
// oracle of algo/mcf.cuh. The mathematics is written out at the top of
// rxmesh/algo/detail/mcf_terms.cuh; this file implements it independently, by
// looping over the faces.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/sparse_operators.h"

namespace rxmesh::reference {

struct McfSystem
{
    //! Unique edges {i, j} with i < j, sorted lexicographically.
    std::vector<std::array<std::uint32_t, 2>> edges;
    //! w per edge, in the order of edges.
    std::vector<double> weight;
    //! a per vertex (size = positions.size()).
    std::vector<double> area;
    //! 1 when the vertex belongs to some face (that repeats no vertex).
    std::vector<std::uint8_t> in_face;
};

//! cot of the angle at k of triangle (k, i, j); 0 when |cross| <= FLT_MIN.
double cotangent(const Vec3f& k, const Vec3f& i, const Vec3f& j);

//! Meyer et al.'s mixed Voronoi area of triangle (i, q, r) at corner i.
double mixed_area(const Vec3f& i, const Vec3f& q, const Vec3f& r);

//! Weights and areas of the mesh (uniform: w = 1, a = valence / 2). Faces
//! that repeat a vertex are skipped.
McfSystem mcf_system(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     bool uniform);

//! (L x)_i = sum_j w_ij (x_i - x_j), per coordinate (3 doubles per vertex).
std::vector<double> laplacian_apply(const McfSystem& s, const std::vector<double>& x);

//! The matrix 2 diag(a) + dt L (one row per vertex, columns sorted); a row
//! of neither area nor weight (a vertex of no face of positive area) is an
//! identity row: with the right-hand side X0 there (mcf_right_hand_side),
//! its vertex stays, as a CG from X0 leaves it.
CsrMatrix mcf_matrix(const McfSystem& s, double dt);
//! 2 a X0 per coordinate (3 per vertex), X0 on mcf_matrix's identity rows.
std::vector<double> mcf_right_hand_side(const McfSystem& s, double dt,
                                        const std::vector<double>& x0);

//! y = 2 a x + dt L x, per coordinate.
std::vector<double> mcf_apply(const McfSystem& s, double dt, const std::vector<double>& x);

//! How well X solves (2 a + dt L) X = 2 a X0: the residual's norm (formed
//! as 2 a (X - X0) + dt L X, no cancellation), the initial guess X0's
//! (|dt L X0|), and the norm of |A| |X|, the scale at which rounding X to
//! float perturbs A X.
struct McfResidual
{
    double residual = 0, initial = 0, rounding_scale = 0;

    //! Whether X solves the system as a float CG of `iterations` iterations
    //! stopped at `tolerance` promises: 10 x tolerance x |r0|, plus float's
    //! attainable accuracy, eps |A| |X| growing like the square root of the
    //! iteration count as rounding errors of the recurrence accumulate
    //! (Greenbaum 1997: the true and recursive residuals drift apart).
    bool within(double tolerance, int iterations) const
    {
        const double eps = 5.96e-8;  // float's unit roundoff
        return residual <= 10 * tolerance * initial +
                               eps * (2 + std::sqrt(double(iterations))) * rounding_scale;
    }
};

//! Mean length of the unique edges (faces that repeat a vertex are skipped),
//! the scale of the scale-invariant default time step; 0 without edges.
double mean_edge_length(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces);

McfResidual mcf_residual(const McfSystem& s, double dt, const std::vector<double>& x0,
                         const std::vector<double>& x);

}  // namespace rxmesh::reference
