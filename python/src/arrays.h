// Python objects to the arrays and streams the ops take: NumPy arrays (and
// anything NumPy converts), and CUDA arrays through DLPack (PyTorch, CuPy),
// which are used in place. A wrong shape, dtype or device is a TypeError
// naming the argument.
#pragma once

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "ops.h"

namespace rxmesh::python {

namespace py = pybind11;

//! The stream a `stream` argument names: None, the current stream of
//! PyTorch (when it has initialised CUDA) or else of CuPy (when imported),
//! else CUDA's default stream; an int (a cudaStream_t); or an object with
//! `cuda_stream` (torch.cuda.Stream) or `ptr` (cupy.cuda.Stream).
cudaStream_t resolve_stream(const py::object& stream);

//! Whether `obj` exports DLPack from CUDA memory (PyTorch, CuPy, DeviceArray).
bool is_cuda_array(const py::object& obj);

//! An input array and what keeps it valid while it is used.
class InputArray
{
   public:
    //! kind: "positions" (floats), "ids" (integers), "values" (float32) or
    //! "float64" (float64 on the current CUDA device only: the Cholesky's
    //! matrices and right-hand sides, which it reads in place).
    //! cols: the required column count, 0 for 1..4, or -1 for any (a 1-D
    //! array is one column). `stream` orders a CUDA producer's writes
    //! before our reads.
    InputArray(const py::object& obj, const char* what, const char* kind, int cols,
               cudaStream_t stream);
    ~InputArray();
    InputArray(const InputArray&)            = delete;
    InputArray& operator=(const InputArray&) = delete;

    const ArrayIn& in() const { return m_in; }

   private:
    //! The checks and fields of a CUDA tensor (m_managed).
    void take_cuda(const std::string& what, const std::string& kind, int cols);

    ArrayIn          m_in;
    py::object       m_keep;  // a NumPy array
    DLManagedTensor* m_managed = nullptr;
};

//! float32 values in device memory: the input's own, or an upload kept here.
class DeviceFloats
{
   public:
    DeviceFloats(const py::object& obj, const char* what, int cols, std::uint64_t rows,
                 cudaStream_t stream);
    const float* data() const { return m_ptr; }
    int          cols() const { return m_cols; }

   private:
    std::unique_ptr<InputArray> m_array;
    DeviceBuffer<float>         m_upload;
    const float*                m_ptr  = nullptr;
    int                         m_cols = 0;
};

}  // namespace rxmesh::python
