// Block-wide staging of a patch's arrays into shared memory (cp.async) or
// into a global scratch buffer, in whole 16-byte chunks of the store.
#pragma once

#include <cstdint>

#include <cuda_pipeline_primitives.h>

namespace rxmesh::detail {

//! Block-wide copy of src[0, n) into `window`, in whole 16-byte chunks of
//! the store: the window mirrors src's chunks, so src[0] lands at window +
//! (src's offset in its chunk), the pointer returned; the window must be
//! 16-byte aligned and hold n + 32 / sizeof(T) elements. In shared memory
//! (kAsync) the chunks go by cp.async, straight from global to shared memory
//! without passing through registers (complete with finish_copies() and a
//! barrier); in the global scratch by plain 16-byte loads and stores. The
//! chunk that reaches past array_end (the store's array that src lies in) is
//! copied element by element. The store's arrays start 256-byte aligned
//! (cudaMalloc), so no chunk starts before its array either.
template <bool kAsync, typename T>
__device__ T* copy_to_window(T* window, const T* src, std::uint32_t n, const T* array_end)
{
    constexpr std::uint32_t per  = 16 / sizeof(T);
    const T*                base = reinterpret_cast<const T*>(
        reinterpret_cast<std::uintptr_t>(src) & ~std::uintptr_t(15));
    const std::uint32_t head = static_cast<std::uint32_t>(src - base);
    if (n == 0)
        return window + head;
    const std::uint32_t nvec = (head + n + per - 1) / per;
    for (std::uint32_t w = threadIdx.x; w < nvec; w += blockDim.x) {
        const T* chunk = base + std::size_t(w) * per;
        if (chunk + per <= array_end) {
            if constexpr (kAsync)
                __pipeline_memcpy_async(window + w * per, chunk, 16);
            else
                *reinterpret_cast<uint4*>(window + w * per) =
                    __ldg(reinterpret_cast<const uint4*>(chunk));
        } else {
            for (std::uint32_t k = 0; k < per && chunk + k < array_end; ++k)
                window[w * per + k] = chunk[k];
        }
    }
    return window + head;
}

//! Waits for this thread's copy_to_window<true> copies (a barrier must
//! follow before other threads read them).
__device__ inline void finish_copies()
{
    __pipeline_commit();
    __pipeline_wait_prior(0);
}

}  // namespace rxmesh::detail
