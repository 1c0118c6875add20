// The standard operators of a triangle mesh as SparseMatrix builders, on the
// vertex pattern (matrix/vertex_pattern.h), in T (float or double; computed
// from the float positions in T):
//
//   cotangent_laplacian  L_ij = -(cot a + cot b) / 2 over the angles opposite
//                        edge ij, L_ii = -sum_j L_ij: positive semi-definite,
//                        L 1 = 0, no clamping of obtuse pairs
//   full_mass            the consistent mass of linear elements: per face of
//                        area A, A / 6 on each corner's diagonal, A / 12
//                        between two corners
//   lumped_voronoi_mass  each vertex's mixed Voronoi area (Meyer et al.
//                        2003), one value per vertex
//
// They equal rxmesh/reference/sparse_operators.h's serial double build (the
// tests' oracle) up to rounding; each is deterministic (matrix/assemble.cuh).
//
//   auto pattern = vertex_pattern(mesh);
//   SparseMatrix<double> L = cotangent_laplacian<double>(pattern, mesh.positions());
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_for.cuh>

#include <cfloat>
#include <cmath>
#include <memory>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/assemble.cuh"
#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh {

namespace detail {

template <typename T>
struct Point3
{
    T x, y, z;
};
template <typename T>
RXMESH_HD Point3<T> point_of(VertexView<const float, 3> p, std::uint32_t v)
{
    return {T(p.data()[3 * std::uint64_t(v)]), T(p.data()[3 * std::uint64_t(v) + 1]),
            T(p.data()[3 * std::uint64_t(v) + 2])};
}
//! The positions of a face's three corners, in T.
template <typename T>
struct CornerPoints
{
    Point3<T> p[3];
    RXMESH_HD CornerPoints(VertexView<const float, 3> positions, const VertexId (&v)[3])
        : p{point_of<T>(positions, v[0].id()), point_of<T>(positions, v[1].id()),
            point_of<T>(positions, v[2].id())}
    {
    }
};
template <typename T>
RXMESH_HD Point3<T> minus(const Point3<T>& a, const Point3<T>& b)
{
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <typename T>
RXMESH_HD T dot3(const Point3<T>& a, const Point3<T>& b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <typename T>
RXMESH_HD T cross_norm(const Point3<T>& a, const Point3<T>& b)
{
    const T x = a.y * b.z - a.z * b.y, y = a.z * b.x - a.x * b.z, z = a.x * b.y - a.y * b.x;
    return sqrt(x * x + y * y + z * z);
}
//! cot of the angle at k of triangle (k, i, j); 0 for a degenerate one (as
//! reference::cotangent).
template <typename T>
RXMESH_HD T cot_at(const Point3<T>& k, const Point3<T>& i, const Point3<T>& j)
{
    const Point3<T> e0 = minus(i, k), e1 = minus(j, k);
    const T         c  = cross_norm(e0, e1);
    return c > T(FLT_MIN) ? dot3(e0, e1) / c : T(0);
}
//! The mixed Voronoi area of triangle (i, q, r) at corner i (as
//! reference::mixed_area).
template <typename T>
RXMESH_HD T mixed_area_at(const Point3<T>& i, const Point3<T>& q, const Point3<T>& r)
{
    const Point3<T> iq = minus(q, i), ir = minus(r, i);
    const T         c  = cross_norm(iq, ir);
    if (!(c > T(FLT_MIN)))
        return T(0);
    if (dot3(iq, ir) < T(0))
        return c / 4;
    if (dot3(minus(i, q), minus(r, q)) < T(0) || dot3(minus(i, r), minus(q, r)) < T(0))
        return c / 8;
    return (dot3(ir, ir) * cot_at(q, i, r) + dot3(iq, iq) * cot_at(r, i, q)) / 8;
}

template <typename T>
void require_positions(const SparsePattern& pattern, VertexView<const float, 3> positions,
                       const char* what)
{
    if (positions.num_elements() != pattern.num_rows())
        throw InvalidInputError(std::string(what) + ": " +
                                std::to_string(positions.num_elements()) + " positions for " +
                                std::to_string(pattern.num_rows()) + " rows");
}

}  // namespace detail

template <typename T>
SparseMatrix<T> cotangent_laplacian(std::shared_ptr<const SparsePattern> pattern,
                                    VertexView<const float, 3> positions, cudaStream_t stream = 0)
{
    detail::require_positions<T>(*pattern, positions, "cotangent_laplacian");
    SparseMatrix<T> L(std::move(pattern), stream);
    assemble_faces(
        L,
        [=] __device__(FaceId, const VertexId(&v)[3], FaceBlocks<T>& local) {
            const detail::CornerPoints<T> c(positions, v);
            const auto&                   p = c.p;
            for (int k = 0; k < 3; ++k) {  // edge (k, k + 1), opposite corner k + 2
                const int i = k, j = (k + 1) % 3, o = (k + 2) % 3;
                const T   w = T(0.5) * detail::cot_at(p[o], p[i], p[j]);
                local(i, j) -= w;
                local(j, i) -= w;
                local(i, i) += w;
                local(j, j) += w;
            }
        },
        AssemblyMode::Replace, stream);
    return L;
}

template <typename T>
SparseMatrix<T> full_mass(std::shared_ptr<const SparsePattern> pattern,
                          VertexView<const float, 3> positions, cudaStream_t stream = 0)
{
    detail::require_positions<T>(*pattern, positions, "full_mass");
    SparseMatrix<T> M(std::move(pattern), stream);
    assemble_faces(
        M,
        [=] __device__(FaceId, const VertexId(&v)[3], FaceBlocks<T>& local) {
            const detail::CornerPoints<T> c(positions, v);
            const T area = T(0.5) * detail::cross_norm(detail::minus(c.p[1], c.p[0]),
                                                       detail::minus(c.p[2], c.p[0]));
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    local(i, j) = i == j ? area / 6 : area / 12;
        },
        AssemblyMode::Replace, stream);
    return M;
}

//! Writes each vertex's mixed Voronoi area into `mass` (one per row),
//! summed over its faces in ascending face id.
template <typename T>
void lumped_voronoi_mass(const SparsePattern& pattern, VertexView<const float, 3> positions,
                         VertexView<T, 1> mass, cudaStream_t stream = 0)
{
    detail::require_positions<T>(pattern, positions, "lumped_voronoi_mass");
    if (mass.num_elements() != pattern.num_rows())
        throw InvalidInputError("lumped_voronoi_mass: the output has " +
                                std::to_string(mass.num_elements()) + " values for " +
                                std::to_string(pattern.num_rows()) + " rows");
    const SparsePatternView p = pattern.view();
    if (p.num_rows == 0)
        return;
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        p.num_rows,
        [=] __device__(std::uint32_t row) {
            T sum = T(0);
            for (int k = p.incidence_offsets[row]; k < p.incidence_offsets[row + 1]; ++k) {
                const std::uint32_t f = p.incidences[k] >> 2, c = p.incidences[k] & 3u;
                const std::uint32_t* fv = p.faces + 3 * std::uint64_t(f);
                sum += detail::mixed_area_at(detail::point_of<T>(positions, fv[c]),
                                             detail::point_of<T>(positions, fv[(c + 1) % 3]),
                                             detail::point_of<T>(positions, fv[(c + 2) % 3]));
            }
            mass.data()[row] = sum;
        },
        stream));
}

}  // namespace rxmesh
