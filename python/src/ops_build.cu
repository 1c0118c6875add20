// Building a mesh from the caller's arrays, the two vertex orders, faces,
// and attributes.
#include <algorithm>
#include <limits>
#include <utility>

#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

namespace {

__global__ void narrow_positions(const double* in, std::uint64_t n, float* out)
{
    const std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (i < n)
        out[i] = float(in[i]);
}

//! int64 ids to uint32; anything outside [0, 2^32 - 1) becomes ~0u, which
//! the build reports as out of range, naming the face.
__global__ void narrow_ids(const std::int64_t* in, std::uint64_t n, std::uint32_t* out)
{
    const std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (i < n)
        out[i] = in[i] >= 0 && in[i] < std::int64_t(~0u) ? std::uint32_t(in[i]) : ~0u;
}

}  // namespace

namespace detail {

//! Device float positions: the caller's, or a converted / uploaded copy
//! in `store`.
const float* device_positions(const ArrayIn& a, DeviceBuffer<float>& store, cudaStream_t s)
{
    const std::uint64_t n = a.rows * 3;
    if (a.on_device && a.type == InType::F32)
        return static_cast<const float*>(a.data);
    store = DeviceBuffer<float>(n, s);
    if (a.on_device) {  // F64 (the bindings refuse the rest)
        if (n > 0)
            narrow_positions<<<detail::blocks(n), 256, 0, s>>>(static_cast<const double*>(a.data), n,
                                                              store.data());
        RXMESH_CHECK_LAUNCH();
    } else if (n > 0) {  // host float32
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(store.data(), a.data, n * sizeof(float),
                                          cudaMemcpyHostToDevice, s));
    }
    return store.data();
}

const std::uint32_t* device_faces(const ArrayIn& a, DeviceBuffer<std::uint32_t>& store,
                                  cudaStream_t s)
{
    const std::uint64_t n = a.rows * 3;
    if (a.on_device && (a.type == InType::I32 || a.type == InType::U32))
        return static_cast<const std::uint32_t*>(a.data);  // negative int32: out of range
    store = DeviceBuffer<std::uint32_t>(n, s);
    if (n == 0)
        return store.data();
    if (a.on_device) {  // I64
        narrow_ids<<<detail::blocks(n), 256, 0, s>>>(static_cast<const std::int64_t*>(a.data), n,
                                                    store.data());
        RXMESH_CHECK_LAUNCH();
    } else {  // host int64: narrowed here, then uploaded
        const auto*                in = static_cast<const std::int64_t*>(a.data);
        std::vector<std::uint32_t> narrow(n);
        for (std::uint64_t i = 0; i < n; ++i)
            narrow[i] = in[i] >= 0 && in[i] < std::int64_t(~0u) ? std::uint32_t(in[i]) : ~0u;
        store.upload(narrow.data(), n);
    }
    return store.data();
}

}  // namespace detail

MeshHandle build_mesh(const ArrayIn& vertices, const ArrayIn& faces, bool weld,
                      std::uint32_t capacity, cudaStream_t s)
{
    if (vertices.rows >= std::numeric_limits<std::uint32_t>::max() ||
        faces.rows >= std::numeric_limits<std::uint32_t>::max() / 3)
        throw InvalidInputError("Mesh: more than 2^32 vertices or 2^30 faces");
    DeviceBuffer<float>         pos_store;
    DeviceBuffer<std::uint32_t> face_store;
    const float*                pos = detail::device_positions(vertices, pos_store, s);
    const std::uint32_t*        fv  = detail::device_faces(faces, face_store, s);
    BuildOptions                opt;
    opt.weld             = weld;
    opt.patcher.capacity = capacity;
    const auto n         = std::uint32_t(vertices.rows);
    MeshHandle h;
    h.mesh = std::make_shared<RXMesh>(VertexView<const float, 3>(pos, n),
                                            FaceView<const std::uint32_t, 3>(fv, std::uint32_t(faces.rows)),
                                            opt, s);
    h.num_input_vertices = n;
    h.built_from_device  = vertices.on_device && faces.on_device;
    if (h.mesh->num_vertices() < n) {  // some input vertex was dropped or merged
        if (pos == pos_store.data()) {     // our own copy: kept, not copied again
            h.input_positions = std::make_shared<DeviceBuffer<float>>(std::move(pos_store));
        } else {
            h.input_positions = std::make_shared<DeviceBuffer<float>>(3 * std::size_t(n), s);
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(h.input_positions->data(), pos,
                                              3 * std::size_t(n) * sizeof(float),
                                              cudaMemcpyDeviceToDevice, s));
        }
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));  // the caller's arrays are free again
    return h;
}

Shared<float> to_input_order(const MeshHandle& h, const float* values, int cols,
                             const float* fallback, float fill, cudaStream_t s)
{
    auto out = std::make_shared<DeviceBuffer<float>>(std::size_t(h.num_input_vertices) * cols, s);
    detail::scatter_to_input_order(h, values, cols, cols == 3 ? fallback : nullptr, fill,
                                   out->data(), s);
    return out;
}

Shared<float> to_mesh_order(const MeshHandle& h, const float* values, int cols, cudaStream_t s)
{
    return std::make_shared<DeviceBuffer<float>>(detail::gather_to_mesh_order(h, values, cols, s));
}

Shared<std::uint32_t> mesh_faces(const MeshHandle& h, cudaStream_t s)
{
    return std::make_shared<DeviceBuffer<std::uint32_t>>(h.mesh->faces(s));
}

// ---- attributes ----

namespace {

template <typename Id>
bool find_attribute(const AttributeRegistry& r, const std::string& name, AttributeInfo& info)
{
    auto fill = [&](auto attr, const char* dtype, int n) {
        info.dtype = dtype, info.components = n;
        info.data = attr.device_data(), info.num_elements = attr.num_elements();
    };
    auto try_float = [&](auto n_tag) {
        constexpr int N = decltype(n_tag)::value;
        try {
            fill(r.get<float, N, Id>(name), "float32", N);
            return true;
        } catch (const Error&) {
            return false;
        }
    };
    if (try_float(std::integral_constant<int, 1>{}) || try_float(std::integral_constant<int, 2>{}) ||
        try_float(std::integral_constant<int, 3>{}) || try_float(std::integral_constant<int, 4>{}))
        return true;
    try {
        fill(r.get<std::int32_t, 1, Id>(name), "int32", 1);
        return true;
    } catch (const Error&) {
    }
    try {
        fill(r.get<std::uint8_t, 1, Id>(name), "uint8", 1);
        return true;
    } catch (const Error&) {
    }
    return false;
}

}  // namespace

AttributeInfo attribute_info(const MeshHandle& h, const std::string& name)
{
    const AttributeRegistry& r = h.mesh->attributes();
    if (!r.contains(name))
        throw InvalidInputError("no attribute called '" + name + "'");
    AttributeInfo info;
    if (!find_attribute<VertexId>(r, name, info) && !find_attribute<EdgeId>(r, name, info) &&
        !find_attribute<FaceId>(r, name, info))
        throw Error("attribute '" + name + "' has a type Python cannot see (float32 x 1..4, int32, uint8)");
    return info;
}

std::vector<std::string> attribute_names(const MeshHandle& h)
{
    return h.mesh->attributes().names();
}

AttributeInfo add_attribute(const MeshHandle& h, const std::string& name, char kind,
                            int components, const float* values, cudaStream_t s)
{
    auto&         r = h.mesh->attributes();
    AttributeInfo info;
    auto add = [&](auto id_tag, auto n_tag) {
        using Id        = decltype(id_tag);
        constexpr int N = decltype(n_tag)::value;
        // given values are copied over it: nothing to fill first
        auto attr = values != nullptr ? r.add_unset<float, N, Id>(name) : r.add<float, N, Id>(name, 0.f);
        if (values != nullptr && attr.num_elements() > 0)
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(attr.device_data(), values,
                                              std::size_t(attr.num_elements()) * N * sizeof(float),
                                              cudaMemcpyDeviceToDevice, s));
        info = {"float32", N, attr.device_data(), attr.num_elements()};
    };
    auto by_n = [&](auto id_tag) {
        switch (components) {
            case 1: add(id_tag, std::integral_constant<int, 1>{}); break;
            case 2: add(id_tag, std::integral_constant<int, 2>{}); break;
            case 3: add(id_tag, std::integral_constant<int, 3>{}); break;
            case 4: add(id_tag, std::integral_constant<int, 4>{}); break;
            default:
                throw InvalidInputError("add_attribute: 1 to 4 values per element, got " +
                                        std::to_string(components));
        }
    };
    if (kind == 'v')
        by_n(VertexId{});
    else if (kind == 'e')
        by_n(EdgeId{});
    else if (kind == 'f')
        by_n(FaceId{});
    else
        throw InvalidInputError(std::string("add_attribute: element kind '") + kind +
                                "', expected 'vertex', 'edge' or 'face'");
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    return info;
}

void remove_attribute(const MeshHandle& h, const std::string& name)
{
    if (name == "position")
        throw InvalidInputError("the attribute 'position' is the mesh's positions; it stays");
    h.mesh->attributes().remove(name);
}

}  // namespace rxmesh::python
