// StageClock (core/stage_clock.h) against known device work: each stage
// spins for a fixed number of clock cycles, so its sum must grow with the
// cycles and the iterations, the stages must add up to the total, and more
// marks than one batch must lose nothing.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <vector>

#include "gpu_test.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/stage_clock.h"

using namespace rxmesh;

namespace {

__global__ void spin(long long cycles)
{
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

void spin_on(cudaStream_t s, long long cycles)
{
    spin<<<1, 1, 0, s>>>(cycles);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace

TEST(GpuStageClock, StagesSumTheirWorkAndAddUpToTheTotal)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    cudaStream_t s{};
    RXMESH_CHECK_CUDA(cudaStreamCreate(&s));
    // 150 iterations x 2 marks: more than two batches of pending events
    const int        iterations = 150;
    const long long  short_spin = 20000, long_spin = 200000;  // cycles
    StageClock       clock(s, 2);
    clock.mark();
    for (int it = 0; it < iterations; ++it) {
        spin_on(s, short_spin);
        clock.mark(0);
        spin_on(s, long_spin);
        clock.mark(1);
    }
    spin_on(s, long_spin);  // between marks of no stage: only in the total
    clock.mark();
    const std::vector<float> ms = clock.finish();
    ASSERT_EQ(ms.size(), 2u);
    int clock_khz = 0;
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    // at least the cycles spun at the highest clock (a launch adds time,
    // never removes it)
    const double floor0 = double(short_spin) * iterations / clock_khz;
    const double floor1 = double(long_spin) * iterations / clock_khz;
    EXPECT_GE(ms[0], 0.99 * floor0);
    EXPECT_GE(ms[1], 0.99 * floor1);
    EXPECT_GT(ms[1], ms[0]);
    EXPECT_GE(clock.total_ms(), ms[0] + ms[1] + 0.99 * double(long_spin) / clock_khz);
    RXMESH_CHECK_CUDA(cudaStreamDestroy(s));
}

//! With every interval in a stage the total is their sum (up to the float
//! sums' rounding): no interval is lost or counted twice. (An upper bound on
//! an unstaged interval would be a timing assertion: another process on the
//! GPU can stretch it.)
TEST(GpuStageClock, TheTotalIsTheSumOfTheStagedIntervals)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    cudaStream_t s{};
    RXMESH_CHECK_CUDA(cudaStreamCreate(&s));
    StageClock clock(s, 3);
    clock.mark();
    for (int it = 0; it < 150; ++it) {  // more than two batches of pending events
        spin_on(s, 20000);
        clock.mark(it % 3);
    }
    const std::vector<float> ms = clock.finish();
    ASSERT_EQ(ms.size(), 3u);
    const double sum = double(ms[0]) + ms[1] + ms[2];
    EXPECT_GT(sum, 0.0);
    EXPECT_NEAR(clock.total_ms(), sum, 1e-4 * sum);  // 150 float additions, twice
    RXMESH_CHECK_CUDA(cudaStreamDestroy(s));
}

TEST(GpuStageClock, BadStagesThrow)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    EXPECT_THROW(StageClock(0, 0), Error);
    StageClock clock(0, 1);
    EXPECT_THROW(clock.mark(1), Error);
    clock.mark();
    clock.mark(0);
    EXPECT_GE(clock.finish()[0], 0.f);
}
