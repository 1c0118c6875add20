#include "arrays.h"

#include <limits>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

namespace {

//! Callables looked up once (leaked on purpose: they must outlive the
//! interpreter's own teardown order).
struct CurrentStreamProbe
{
    py::object* modules = nullptr;  // sys.modules
    py::object* torch_initialized = nullptr, *torch_raw_stream = nullptr, *torch_device = nullptr;
    py::object* torch_current_stream = nullptr;
};

CurrentStreamProbe& probe()
{
    static CurrentStreamProbe p{new py::object(py::module_::import("sys").attr("modules"))};
    return p;
}

cudaStream_t handle(const py::object& o)
{
    return reinterpret_cast<cudaStream_t>(static_cast<std::intptr_t>(o.cast<std::int64_t>()));
}

//! PyTorch's current stream, when PyTorch is imported and has initialised
//! CUDA (its C entry points where they exist: cheaper than building a
//! torch.cuda.Stream per call).
bool torch_current_stream(cudaStream_t& out)
{
    CurrentStreamProbe& p       = probe();
    const py::dict      modules = p.modules->cast<py::dict>();
    if (!modules.contains("torch"))
        return false;
    if (p.torch_initialized == nullptr) {
        const py::object torch = modules["torch"];
        const py::object C     = torch.attr("_C");
        p.torch_initialized    = new py::object(torch.attr("cuda").attr("is_initialized"));
        if (py::hasattr(C, "_cuda_getCurrentRawStream") && py::hasattr(C, "_cuda_getDevice")) {
            p.torch_raw_stream = new py::object(C.attr("_cuda_getCurrentRawStream"));
            p.torch_device     = new py::object(C.attr("_cuda_getDevice"));
        }
        p.torch_current_stream = new py::object(torch.attr("cuda").attr("current_stream"));
    }
    if (!(*p.torch_initialized)().cast<bool>())
        return false;
    out = p.torch_raw_stream ? handle((*p.torch_raw_stream)((*p.torch_device)()))
                             : handle((*p.torch_current_stream)().attr("cuda_stream"));
    return true;
}

}  // namespace

cudaStream_t resolve_stream(const py::object& stream)
{
    if (stream.is_none()) {
        cudaStream_t s = 0;
        if (torch_current_stream(s))
            return s;
        const py::dict modules = probe().modules->cast<py::dict>();
        if (modules.contains("cupy"))
            return handle(modules["cupy"].attr("cuda").attr("get_current_stream")().attr("ptr"));
        return 0;
    }
    if (py::isinstance<py::int_>(stream))
        return handle(stream);
    if (py::hasattr(stream, "cuda_stream"))
        return handle(stream.attr("cuda_stream"));
    if (py::hasattr(stream, "ptr"))
        return handle(stream.attr("ptr"));
    throw py::type_error("stream: expected None, an int (a cudaStream_t), a torch.cuda.Stream or "
                         "a cupy.cuda.Stream");
}

bool is_cuda_array(const py::object& obj)
{
    if (!py::hasattr(obj, "__dlpack_device__"))
        return false;
    const auto dev = obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    return dev.first == kDLCUDA || dev.first == kDLCUDAManaged;
}

namespace {

//! DLPack's convention for a consumer's stream (0 is not allowed there).
std::int64_t dlpack_stream_value(cudaStream_t s)
{
    if (s == nullptr || s == cudaStreamLegacy)
        return 1;
    if (s == cudaStreamPerThread)
        return 2;
    return static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(s));
}

InType dl_in_type(const DLDataType& t, const std::string& what)
{
    if (t.lanes == 1) {
        if (t.code == kDLFloat && t.bits == 32) return InType::F32;
        if (t.code == kDLFloat && t.bits == 64) return InType::F64;
        if (t.code == kDLInt && t.bits == 32) return InType::I32;
        if (t.code == kDLInt && t.bits == 64) return InType::I64;
        if (t.code == kDLUInt && t.bits == 32) return InType::U32;
    }
    throw py::type_error(what + ": unsupported dtype (code " + std::to_string(t.code) + ", " +
                         std::to_string(t.bits) + " bits)");
}

void require_type(InType t, const std::string& kind, const std::string& what)
{
    const bool floating = t == InType::F32 || t == InType::F64;
    if (kind == "positions" && !floating)
        throw py::type_error(what + ": expected float32 or float64 values");
    if (kind == "values" && t != InType::F32)
        throw py::type_error(what + ": expected float32 values");
    if (kind == "float64" && t != InType::F64)
        throw py::type_error(what + ": expected float64 values");
    if (kind == "ids" && floating)
        throw py::type_error(what + ": expected integer vertex ids (int32, uint32 or int64)");
}

//! (rows, cols) of an array of ndim 1 or 2; throws for another shape.
std::pair<std::uint64_t, int> rows_cols(int ndim, const std::int64_t* shape, int cols,
                                        const std::string& what)
{
    const std::string want = cols > 0  ? "(n, " + std::to_string(cols) + ")"
                             : cols == 0 ? "(n,) or (n, 1..4)"
                                         : "(n,) or (n, k)";
    auto columns_ok = [&](std::int64_t c) {
        return cols > 0    ? c == cols
               : cols == 0 ? c >= 1 && c <= 4
                           : c >= 1 && c <= std::numeric_limits<int>::max();
    };
    if (ndim == 2 && columns_ok(shape[1]))
        return {std::uint64_t(shape[0]), int(shape[1])};
    if (ndim == 1 && cols <= 1)
        return {std::uint64_t(shape[0]), 1};
    std::string got = "(";
    for (int d = 0; d < ndim; ++d) got += (d ? ", " : "") + std::to_string(shape[d]);
    throw py::type_error(what + ": expected shape " + want + ", got " + got + ")");
}

}  // namespace

void InputArray::take_cuda(const std::string& what, const std::string& kind, int cols)
{
    const DLTensor& t = m_managed->dl_tensor;
    int current = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&current));
    if (t.device.device_id != current)
        throw py::type_error(what + ": on CUDA device " + std::to_string(t.device.device_id) +
                             ", the current device is " + std::to_string(current));
    const auto [rows, c] = rows_cols(t.ndim, t.shape, cols, what);
    const bool contiguous =
        !t.strides || rows <= 1 || (t.ndim == 1 ? t.strides[0] == 1
                                                : t.strides[1] == 1 && t.strides[0] == c) ||
        (t.ndim == 2 && c == 1 && t.strides[0] == 1);
    if (!contiguous)
        throw py::type_error(what + ": expected a C-contiguous array (call .contiguous())");
    m_in.type      = dl_in_type(t.dtype, what);
    require_type(m_in.type, kind, what);
    m_in.data      = static_cast<const char*>(t.data) + t.byte_offset;
    m_in.rows      = rows;
    m_in.cols      = c;
    m_in.on_device = true;
}

InputArray::InputArray(const py::object& obj, const char* what_c, const char* kind_c, int cols,
                       cudaStream_t stream)
{
    const std::string what = what_c, kind = kind_c;
    if (is_cuda_array(obj)) {
        py::capsule cap = obj.attr("__dlpack__")(py::arg("stream") = dlpack_stream_value(stream));
        m_managed = static_cast<DLManagedTensor*>(cap.get_pointer());
        cap.set_name("used_dltensor");  // ours now: the capsule must not free it
        try {
            take_cuda(what, kind, cols);
        } catch (...) {  // the destructor will not run: hand the tensor back here
            if (m_managed->deleter)
                m_managed->deleter(m_managed);
            m_managed = nullptr;
            throw;
        }
        return;
    }
    if (kind == "float64")  // read in place: a host array would need an upload
        throw py::type_error(what + ": expected a float64 array on the current CUDA device "
                             "(PyTorch, CuPy)");
    py::array a = py::array::ensure(obj);
    if (!a)
        throw py::type_error(what + ": expected an array (NumPy, PyTorch, CuPy)");
    std::vector<std::int64_t> shape(a.shape(), a.shape() + a.ndim());
    const auto [rows, c] = rows_cols(int(a.ndim()), shape.data(), cols, what);
    const bool integral = py::dtype::of<std::int64_t>().kind() == a.dtype().kind() ||
                          a.dtype().kind() == 'u' || a.dtype().kind() == 'b';
    if (kind == "ids" && !integral)
        throw py::type_error(what + ": expected integer vertex ids");
    if (kind == "ids") {
        m_keep    = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
        m_in.type = InType::I64;
    } else {
        m_keep    = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
        m_in.type = InType::F32;
    }
    if (!m_keep)
        throw py::type_error(what + ": expected numeric values");
    m_in.data = py::array(m_keep).data();
    m_in.rows = rows;
    m_in.cols = c;
}

InputArray::~InputArray()
{
    if (m_managed && m_managed->deleter)
        m_managed->deleter(m_managed);
}

DeviceFloats::DeviceFloats(const py::object& obj, const char* what, int cols, std::uint64_t rows,
                           cudaStream_t stream)
    : m_array(std::make_unique<InputArray>(obj, what, "values", cols, stream))
{
    const ArrayIn& a = m_array->in();
    if (a.rows != rows)
        throw py::type_error(std::string(what) + ": expected " + std::to_string(rows) +
                             " rows, got " + std::to_string(a.rows));
    m_cols = a.cols;
    if (a.on_device) {
        m_ptr = static_cast<const float*>(a.data);
        return;
    }
    m_upload = DeviceBuffer<float>(a.rows * a.cols, stream);
    if (a.rows > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_upload.data(), a.data, a.rows * a.cols * sizeof(float),
                                          cudaMemcpyHostToDevice, stream));
    m_ptr = m_upload.data();
}

}  // namespace rxmesh::python
