// Two geometric operators of the positions, in float or double, with their
// vector-Jacobian products (what reverse-mode automatic differentiation,
// e.g. torch.autograd, needs):
//
//   unit_vertex_normals:      n_v = m_v / |m_v|, m_v the sum over v's faces
//                             of Max's corner term (e1 x e2) / (|e1|^2 |e2|^2)
//                             (algo/vertex_normals.cuh's normals);
//   cotan_laplacian_apply:    y_i = sum_j w_ij (x_j - x_i), w_ij = (cot a_ij +
//                             cot b_ij) / 2, the angles opposite edge ij, for
//                             M values per vertex (x need not be positions);
//   ..._vjp:                  the gradient of sum(g * output) with respect
//                             to the positions (the product's gradient with
//                             respect to x is the product of g: L is
//                             symmetric).
//
// Written with the public API: every pass is RXMesh::accumulate<Op::FV>,
// each face adding, to the corner it is called for, that corner's share;
// the inputs a face needs are staged per patch. Degenerate corners (zero
// edge or zero area) contribute zero, as in the float normals. The float
// normals are algo/vertex_normals.cuh's; the terms below restate
// geometry/operators.h's for any T (that vocabulary is float only) with the
// same degenerate cases.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/view_checks.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace grad {

template <typename T>
struct V3
{
    T x, y, z;
    __device__ V3 operator+(const V3& o) const { return {x + o.x, y + o.y, z + o.z}; }
    __device__ V3 operator-(const V3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    __device__ V3 operator*(T s) const { return {x * s, y * s, z * s}; }
    __device__ V3& operator+=(const V3& o) { return *this = *this + o; }
};
template <typename T>
__device__ T dot(const V3<T>& a, const V3<T>& b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <typename T>
__device__ V3<T> cross(const V3<T>& a, const V3<T>& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <typename T>
__device__ T norm(const V3<T>& a)
{
    return sqrt(dot(a, a));
}

//! Corner k of a staged row whose first three values are the position.
template <typename T, int S>
__device__ V3<T> corner(const StagedRow<T, S>& x, int k)
{
    return {x(k, 0), x(k, 1), x(k, 2)};
}

//! Max's corner term at v (next corner a, previous b).
template <typename T>
__device__ V3<T> max_term(const V3<T>& v, const V3<T>& a, const V3<T>& b)
{
    const V3<T> e1 = a - v, e2 = b - v;
    const T     l1 = dot(e1, e1), l2 = dot(e2, e2);
    return l1 > T(0) && l2 > T(0) ? cross(e1, e2) * (T(1) / (l1 * l2)) : V3<T>{0, 0, 0};
}

//! The gradients of g . max_term(v, a, b) with respect to a (first) and b
//! (second); v's is minus their sum.
template <typename T>
__device__ void max_term_vjp(const V3<T>& v, const V3<T>& a, const V3<T>& b, const V3<T>& g,
                             V3<T>& d_a, V3<T>& d_b)
{
    const V3<T> e1 = a - v, e2 = b - v;
    const T     l1 = dot(e1, e1), l2 = dot(e2, e2);
    if (!(l1 > T(0) && l2 > T(0))) {
        d_a = d_b = {0, 0, 0};
        return;
    }
    const T s = T(1) / (l1 * l2), gn = dot(g, cross(e1, e2));
    d_a       = cross(e2, g) * s - e1 * (T(2) * s * gn / l1);
    d_b       = cross(g, e1) * s - e2 * (T(2) * s * gn / l2);
}

//! cot of the angle at c of triangle (c, a, b), and its gradients with
//! respect to a and b (c's is minus their sum); all zero when degenerate.
template <typename T>
__device__ T cot_and_gradient(const V3<T>& c, const V3<T>& a, const V3<T>& b, V3<T>& d_a,
                              V3<T>& d_b)
{
    const V3<T> u = a - c, v = b - c, n = cross(u, v);
    const T     s = norm(n);
    if (!(s > std::numeric_limits<T>::min())) {  // as cotangent (geometry/operators.h)
        d_a = d_b = {0, 0, 0};
        return T(0);
    }
    const T     cot = dot(u, v) / s;
    const V3<T> nh  = n * (T(1) / s);
    d_a             = (v - cross(v, nh) * cot) * (T(1) / s);
    d_b             = (u - cross(nh, u) * cot) * (T(1) / s);
    return cot;
}

//! cot of the angle at c, as cotangent (geometry/operators.h) computes it: 0
//! when |cross| is not above the type's smallest normal number (FLT_MIN
//! for float, so the float Laplacian's weights are MCF's).
template <typename T>
__device__ T cot_at(const V3<T>& c, const V3<T>& a, const V3<T>& b)
{
    const V3<T> u = a - c, v = b - c;
    const T     s = norm(cross(u, v));
    return s > std::numeric_limits<T>::min() ? dot(u, v) / s : T(0);
}

//! Staged input: the concatenation of views, value d of vertex v.
template <typename T, int M>
struct Concat3
{
    const T* a;  // 3 per vertex
    const T* b;  // M per vertex (may be null when unused)
    const T* c;  // M per vertex (may be null when unused)
    __device__ T operator()(VertexId v, int d) const
    {
        const std::size_t i = v.id();
        if (d < 3)
            return a[3 * i + d];
        if (d < 3 + M)
            return b[M * i + d - 3];
        return c[M * i + d - 3 - M];
    }
};

// ---- unit normals and their vector-Jacobian product ----

template <typename T>
struct MaxCorner
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<T, 3>& x,
                               const VertexSums<T, 3>& sums) const
    {
        for (int k = 0; k < 3; ++k)
            if (sums.owns(k)) {
                const V3<T> m = max_term(corner(x, k), corner(x, (k + 1) % 3), corner(x, (k + 2) % 3));
                const T     value[3] = {m.x, m.y, m.z};
                sums.add(k, value);
            }
    }
};

template <typename T>
struct StoreUnit
{
    VertexView<T, 3> out;
    __device__ void  operator()(VertexId v, const T (&m)[3]) const
    {
        const T l = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        const T s = l > T(0) ? T(1) / l : T(0);
        for (int d = 0; d < 3; ++d)
            out(v, d) = m[d] * s;
    }
};

//! From the unnormalised sum m and the gradient g of the unit normal: the
//! gradient of m, (g - n (n . g)) / |m|.
template <typename T>
struct UnitGradient
{
    VertexView<const T, 3> g;
    VertexView<T, 3>       out;
    __device__ void        operator()(VertexId v, const T (&m)[3]) const
    {
        const T     l = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        const V3<T> gv{g(v, 0), g(v, 1), g(v, 2)};
        V3<T>       r{0, 0, 0};
        if (l > T(0)) {
            const V3<T> n{m[0] / l, m[1] / l, m[2] / l};
            r = (gv - n * dot(n, gv)) * (T(1) / l);
        }
        out(v, 0) = r.x, out(v, 1) = r.y, out(v, 2) = r.z;
    }
};

//! For the corner k that `sums` gathers for: the gradient, with respect to
//! p_k, of the sum over the face's corners c of a term of (p_c, p_a, p_b)
//! (a, b: the next corners). gradient(c, a, b, d_a, d_b) gives the term's
//! gradients with respect to p_a and p_b; p_c's is minus their sum.
template <typename T, typename TermGradient>
__device__ void add_owned_position_gradient(const VertexSums<T, 3>& sums, const TermGradient& gradient)
{
    for (int k = 0; k < 3; ++k) {
        if (!sums.owns(k))
            continue;
        V3<T> total{0, 0, 0};
        for (int c = 0; c < 3; ++c) {
            const int a = (c + 1) % 3, b = (c + 2) % 3;
            V3<T>     d_a, d_b;
            gradient(c, a, b, d_a, d_b);
            total += k == a ? d_a : k == b ? d_b : (d_a + d_b) * T(-1);
        }
        const T value[3] = {total.x, total.y, total.z};
        sums.add(k, value);
    }
}

//! The corner's share of sum over the face's corners c of gm_c . term_c
//! (staged: position, then gm).
template <typename T>
struct MaxCornerVjp
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<T, 6>& x,
                               const VertexSums<T, 3>& sums) const
    {
        const V3<T> p[3] = {corner(x, 0), corner(x, 1), corner(x, 2)};
        add_owned_position_gradient(sums, [&](int c, int a, int b, V3<T>& d_a, V3<T>& d_b) {
            max_term_vjp(p[c], p[a], p[b], V3<T>{x(c, 3), x(c, 4), x(c, 5)}, d_a, d_b);
        });
    }
};

template <typename T, int N>
struct Store
{
    VertexView<T, N> out;
    __device__ void  operator()(VertexId v, const T (&s)[N]) const
    {
        for (int d = 0; d < N; ++d)
            out(v, d) = s[d];
    }
};

// ---- the cotangent Laplacian's product and its vector-Jacobian product ----

//! The corner's share of y = L x (staged: position, then x with M values).
template <typename T, int M>
struct CotanCorner
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<T, 3 + M>& x,
                               const VertexSums<T, M>& sums) const
    {
        const V3<T> p[3] = {corner(x, 0), corner(x, 1), corner(x, 2)};
        for (int k = 0; k < 3; ++k) {
            if (!sums.owns(k))
                continue;
            const int a = (k + 1) % 3, b = (k + 2) % 3;
            // edge (k, a) is opposite corner b, edge (k, b) opposite a
            const T w_ka = T(0.5) * cot_at(p[b], p[k], p[a]);
            const T w_kb = T(0.5) * cot_at(p[a], p[b], p[k]);
            T       value[M];
            for (int d = 0; d < M; ++d)
                value[d] = w_ka * (x(a, 3 + d) - x(k, 3 + d)) + w_kb * (x(b, 3 + d) - x(k, 3 + d));
            sums.add(k, value);
        }
    }
};

//! The corner's share of the gradient of sum(g * L(p) x) with respect to
//! p (staged: position, x, g): the angle at c weighs edge (a, b) by
//! cot / 2 in (g_a - g_b) . (x_b - x_a).
template <typename T, int M>
struct CotanCornerVjp
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<T, 3 + 2 * M>& x,
                               const VertexSums<T, 3>& sums) const
    {
        const V3<T> p[3] = {corner(x, 0), corner(x, 1), corner(x, 2)};
        add_owned_position_gradient(sums, [&](int c, int a, int b, V3<T>& d_a, V3<T>& d_b) {
            T s = 0;
            for (int d = 0; d < M; ++d)
                s += (x(a, 3 + M + d) - x(b, 3 + M + d)) * (x(b, 3 + d) - x(a, 3 + d));
            cot_and_gradient(p[c], p[a], p[b], d_a, d_b);
            d_a = d_a * (T(0.5) * s), d_b = d_b * (T(0.5) * s);
        });
    }
};

}  // namespace grad

//! Unit vertex normals with Max's weights, in T (zero for a vertex of no
//! face or of zero sum). \pre both views hold mesh.num_vertices() elements.
template <typename T>
void unit_vertex_normals(const RXMesh& mesh, VertexView<const T, 3> positions,
                         VertexView<T, 3> normals, cudaStream_t stream = 0)
{
    require_vertex_count("unit_vertex_normals", mesh, positions, normals);
    if constexpr (std::is_same_v<T, float>)
        vertex_normals(mesh, positions, normals, stream);  // the library's normals
    else
        mesh.accumulate<Op::FV, T, 3>(VertexInput<T, 3>{positions}, grad::MaxCorner<T>{},
                                      grad::StoreUnit<T>{normals}, stream);
}

//! The gradient, with respect to the positions, of sum(g * normals) for
//! the normals of unit_vertex_normals: written to `gradient`.
template <typename T>
void unit_vertex_normals_vjp(const RXMesh& mesh, VertexView<const T, 3> positions,
                             VertexView<const T, 3> g, VertexView<T, 3> gradient,
                             cudaStream_t stream = 0)
{
    require_vertex_count("unit_vertex_normals_vjp", mesh, positions, gradient);
    require_vertex_count("unit_vertex_normals_vjp", mesh, g, gradient);
    const std::uint32_t n = mesh.num_vertices();
    DeviceBuffer<T>     gm(3 * std::size_t(n), stream);  // the gradient of each unnormalised sum
    mesh.accumulate<Op::FV, T, 3>(VertexInput<T, 3>{positions}, grad::MaxCorner<T>{},
                                  grad::UnitGradient<T>{g, VertexView<T, 3>(gm.data(), n)}, stream);
    mesh.accumulate<Op::FV, T, 3>(
        computed_vertex_input<T, 6>(grad::Concat3<T, 3>{positions.data(), gm.data(), nullptr}),
        grad::MaxCornerVjp<T>{}, grad::Store<T, 3>{gradient}, stream);
}

//! y = L x, L the cotangent Laplacian of the positions (M values per
//! vertex in x and y, M in 1..3).
template <typename T, int M>
void cotan_laplacian_apply(const RXMesh& mesh, VertexView<const T, 3> positions,
                           VertexView<const T, M> x, VertexView<T, M> y, cudaStream_t stream = 0)
{
    static_assert(M >= 1 && M <= 3, "1 to 3 values per vertex");
    require_vertex_count("cotan_laplacian_apply", mesh, positions, y);
    require_vertex_count("cotan_laplacian_apply", mesh, x, y);
    mesh.accumulate<Op::FV, T, M>(
        computed_vertex_input<T, 3 + M>(grad::Concat3<T, M>{positions.data(), x.data(), nullptr}),
        grad::CotanCorner<T, M>{}, grad::Store<T, M>{y}, stream);
}

//! The gradient, with respect to the positions, of sum(g * L(p) x): written
//! to `gradient` (3 per vertex). With respect to x it is L g
//! (cotan_laplacian_apply of g).
template <typename T, int M>
void cotan_laplacian_vjp(const RXMesh& mesh, VertexView<const T, 3> positions,
                         VertexView<const T, M> x, VertexView<const T, M> g,
                         VertexView<T, 3> gradient, cudaStream_t stream = 0)
{
    static_assert(M >= 1 && M <= 3, "1 to 3 values per vertex");
    require_vertex_count("cotan_laplacian_vjp", mesh, positions, gradient);
    require_vertex_count("cotan_laplacian_vjp", mesh, x, g);
    require_vertex_count("cotan_laplacian_vjp", mesh, x, gradient);
    mesh.accumulate<Op::FV, T, 3>(computed_vertex_input<T, 3 + 2 * M>(grad::Concat3<T, M>{
                                      positions.data(), x.data(), g.data()}),
                                  grad::CotanCornerVjp<T, M>{}, grad::Store<T, 3>{gradient},
                                  stream);
}

}  // namespace rxmesh
