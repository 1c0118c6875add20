// The differentiable operators for torch.autograd (algo/geometry_gradients.cuh)
// between the caller's input-order arrays and the mesh's order.
//
// Input order to mesh order takes each mesh vertex's first input vertex
// (global_vertex_to_input); mesh order to input order copies each mesh
// vertex's row to every input vertex that became it (input_vertex_to_global;
// zero for a dropped vertex). The gradients are the transposes: summed over
// an input vertex's copies, and given to the first input vertex only.
#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/algo/geometry_gradients.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

//! The transpose of rows_to_input_order: out (mesh order, zero on entry) +=
//! each input row.
template <typename T>
__global__ void sum_to_mesh(const T* in, const std::uint32_t* input_to_global, std::uint32_t n,
                            int cols, T* out)
{
    const std::uint64_t t = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (t >= std::uint64_t(n) * cols)
        return;
    const std::uint32_t g = input_to_global[t / cols];
    if (g != ~0u)
        atomicAdd(&out[std::uint64_t(g) * cols + t % cols], in[t]);
}

//! The transpose of rows_to_mesh_order: each mesh row to its first input vertex.
template <typename T>
__global__ void first_to_input(const T* in, const std::uint32_t* input_to_global,
                               const std::uint32_t* global_to_input, std::uint32_t n, int cols,
                               T* out)
{
    const std::uint64_t t = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (t >= std::uint64_t(n) * cols)
        return;
    const std::uint64_t i = t / cols;
    const std::uint32_t g = input_to_global[i];
    out[t] = g != ~0u && global_to_input[g] == i ? in[std::uint64_t(g) * cols + t % cols] : T(0);
}

//! The two orders of one mesh for one element type.
template <typename T>
struct Orders
{
    const MeshHandle& h;
    cudaStream_t      s;

    std::uint32_t mesh_n() const { return h.mesh->num_vertices(); }
    std::uint32_t input_n() const { return h.num_input_vertices; }

    DeviceBuffer<T> to_mesh(const void* in, int cols) const
    {
        return detail::gather_to_mesh_order(h, static_cast<const T*>(in), cols, s);
    }
    void to_input(const DeviceBuffer<T>& in, int cols, void* out) const
    {
        detail::scatter_to_input_order(h, in.data(), cols, static_cast<const T*>(nullptr), T(0),
                                       static_cast<T*>(out), s);
    }
    DeviceBuffer<T> sum_to_mesh_order(const void* in, int cols) const
    {
        DeviceBuffer<T> out(std::size_t(mesh_n()) * cols, s);
        RXMESH_CHECK_CUDA(cudaMemsetAsync(out.data(), 0, out.bytes(), s));
        if (input_n() > 0) {
            sum_to_mesh<<<detail::blocks(std::uint64_t(input_n()) * cols), 256, 0, s>>>(
                static_cast<const T*>(in), h.mesh->input_vertex_to_global().data(), input_n(), cols,
                out.data());
            RXMESH_CHECK_LAUNCH();
        }
        return out;
    }
    void first_to_input_order(const DeviceBuffer<T>& in, int cols, void* out) const
    {
        if (input_n() == 0)
            return;
        first_to_input<<<detail::blocks(std::uint64_t(input_n()) * cols), 256, 0, s>>>(
            in.data(), h.mesh->input_vertex_to_global().data(),
            h.mesh->global_vertex_to_input().data(), input_n(), cols, static_cast<T*>(out));
        RXMESH_CHECK_LAUNCH();
    }
    template <int N>
    VertexView<T, N> view(DeviceBuffer<T>& b) const
    {
        return {b.data(), mesh_n()};
    }
    template <int N>
    VertexView<const T, N> cview(const DeviceBuffer<T>& b) const
    {
        return {b.data(), mesh_n()};
    }
};

template <typename T>
void normals_forward_t(const MeshHandle& h, const void* positions, void* normals, cudaStream_t s)
{
    const Orders<T> o{h, s};
    DeviceBuffer<T> p = o.to_mesh(positions, 3), n(3 * std::size_t(o.mesh_n()), s);
    unit_vertex_normals<T>(*h.mesh, o.template cview<3>(p), o.template view<3>(n), s);
    o.to_input(n, 3, normals);
}

template <typename T>
void normals_backward_t(const MeshHandle& h, const void* positions, const void* grad_normals,
                        void* grad_positions, cudaStream_t s)
{
    const Orders<T> o{h, s};
    DeviceBuffer<T> p = o.to_mesh(positions, 3), g = o.sum_to_mesh_order(grad_normals, 3);
    DeviceBuffer<T> gp(3 * std::size_t(o.mesh_n()), s);
    unit_vertex_normals_vjp<T>(*h.mesh, o.template cview<3>(p), o.template cview<3>(g),
                               o.template view<3>(gp), s);
    o.first_to_input_order(gp, 3, grad_positions);
}

template <typename T, int M>
void laplacian_forward_t(const MeshHandle& h, const void* positions, const void* x, void* y,
                         cudaStream_t s)
{
    const Orders<T> o{h, s};
    DeviceBuffer<T> p = o.to_mesh(positions, 3), xm = o.to_mesh(x, M);
    DeviceBuffer<T> ym(M * std::size_t(o.mesh_n()), s);
    cotan_laplacian_apply<T, M>(*h.mesh, o.template cview<3>(p), o.template cview<M>(xm),
                                o.template view<M>(ym), s);
    o.to_input(ym, M, y);
}

template <typename T, int M>
void laplacian_backward_t(const MeshHandle& h, const void* positions, const void* x,
                          const void* grad_y, void* grad_positions, void* grad_x, cudaStream_t s)
{
    const Orders<T> o{h, s};
    DeviceBuffer<T> p = o.to_mesh(positions, 3), g = o.sum_to_mesh_order(grad_y, M);
    if (grad_positions != nullptr) {  // only this gradient reads x
        DeviceBuffer<T> xm = o.to_mesh(x, M), gp(3 * std::size_t(o.mesh_n()), s);
        cotan_laplacian_vjp<T, M>(*h.mesh, o.template cview<3>(p), o.template cview<M>(xm),
                                  o.template cview<M>(g), o.template view<3>(gp), s);
        o.first_to_input_order(gp, 3, grad_positions);
    }
    if (grad_x != nullptr) {
        DeviceBuffer<T> gx(M * std::size_t(o.mesh_n()), s);
        cotan_laplacian_apply<T, M>(*h.mesh, o.template cview<3>(p), o.template cview<M>(g),
                                    o.template view<M>(gx), s);
        o.first_to_input_order(gx, M, grad_x);
    }
}

template <typename T>
void laplacian_forward_cols(const MeshHandle& h, int cols, const void* p, const void* x, void* y,
                            cudaStream_t s)
{
    switch (cols) {
        case 1: return laplacian_forward_t<T, 1>(h, p, x, y, s);
        case 2: return laplacian_forward_t<T, 2>(h, p, x, y, s);
        case 3: return laplacian_forward_t<T, 3>(h, p, x, y, s);
    }
    throw InvalidInputError("laplacian: x has 1 to 3 values per vertex, got " + std::to_string(cols));
}

template <typename T>
void laplacian_backward_cols(const MeshHandle& h, int cols, const void* p, const void* x,
                             const void* g, void* gp, void* gx, cudaStream_t s)
{
    switch (cols) {
        case 1: return laplacian_backward_t<T, 1>(h, p, x, g, gp, gx, s);
        case 2: return laplacian_backward_t<T, 2>(h, p, x, g, gp, gx, s);
        case 3: return laplacian_backward_t<T, 3>(h, p, x, g, gp, gx, s);
    }
    throw InvalidInputError("laplacian: x has 1 to 3 values per vertex, got " + std::to_string(cols));
}

}  // namespace

void normals_forward(const MeshHandle& h, bool dbl, const void* positions, void* normals,
                     cudaStream_t s)
{
    dbl ? normals_forward_t<double>(h, positions, normals, s)
        : normals_forward_t<float>(h, positions, normals, s);
}

void normals_backward(const MeshHandle& h, bool dbl, const void* positions,
                      const void* grad_normals, void* grad_positions, cudaStream_t s)
{
    dbl ? normals_backward_t<double>(h, positions, grad_normals, grad_positions, s)
        : normals_backward_t<float>(h, positions, grad_normals, grad_positions, s);
}

void laplacian_forward(const MeshHandle& h, bool dbl, int cols, const void* positions,
                       const void* x, void* y, cudaStream_t s)
{
    dbl ? laplacian_forward_cols<double>(h, cols, positions, x, y, s)
        : laplacian_forward_cols<float>(h, cols, positions, x, y, s);
}

void laplacian_backward(const MeshHandle& h, bool dbl, int cols, const void* positions,
                        const void* x, const void* grad_y, void* grad_positions, void* grad_x,
                        cudaStream_t s)
{
    dbl ? laplacian_backward_cols<double>(h, cols, positions, x, grad_y, grad_positions, grad_x, s)
        : laplacian_backward_cols<float>(h, cols, positions, x, grad_y, grad_positions, grad_x, s);
}

}  // namespace rxmesh::python
