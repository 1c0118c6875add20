// RXMESH_CHECK_CUDA's errors as a user catches them, without a GPU: no
// device or an old driver is a NoDeviceError that says so (and still a
// CudaError); code for other GPUs names the fix; anything else a CudaError
// naming the call, file and line.
#include <gtest/gtest.h>

#include <string>

#include "rxmesh/core/cuda_check.h"

namespace {

using namespace rxmesh;

template <typename E>
std::string thrown(cudaError_t err)
{
    try {
        detail::throw_cuda_error(err, "cudaEventCreate(&e)", "gpu_timer.h", 21);
    } catch (const E& e) {
        return e.what();
    }
    ADD_FAILURE() << "no exception of the expected type";
    return "";
}

TEST(CudaErrors, NoDeviceOrOldDriverSaysSo)
{
    for (cudaError_t err : {cudaErrorNoDevice, cudaErrorInsufficientDriver}) {
        const std::string what = thrown<NoDeviceError>(err);
        EXPECT_EQ(what.rfind("no usable CUDA device: gpu_timer.h:21: cudaEventCreate(&e) failed: ", 0),
                  0u)
            << what;
        EXPECT_NE(what.find(cudaGetErrorName(err)), std::string::npos) << what;
        EXPECT_FALSE(thrown<CudaError>(err).empty());  // a CudaError too
    }
}

TEST(CudaErrors, OtherGpusNameTheFix)
{
    const std::string what = thrown<CudaError>(cudaErrorNoKernelImageForDevice);
    EXPECT_NE(what.find("set CMAKE_CUDA_ARCHITECTURES"), std::string::npos) << what;
}

TEST(CudaErrors, OthersNameCallFileAndLine)
{
    const std::string what = thrown<CudaError>(cudaErrorInvalidValue);
    EXPECT_EQ(what.rfind("gpu_timer.h:21: cudaEventCreate(&e) failed: cudaErrorInvalidValue", 0), 0u)
        << what;
    try {
        detail::throw_cuda_error(cudaErrorInvalidValue, "f()", "x.h", 1);
    } catch (const NoDeviceError&) {
        FAIL() << "an invalid value is not a missing device";
    } catch (const CudaError&) {
    }
}

}  // namespace
