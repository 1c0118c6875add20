// Reproducible random test inputs, shared by the CPU and GPU tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace rxmesh::test {

//! n values uniform in [-1, 1], the same for the same seed.
template <typename T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed)
{
    std::mt19937                      rng(seed);
    std::uniform_real_distribution<T> u(T(-1), T(1));
    std::vector<T>                    x(n);
    for (T& v : x)
        v = u(rng);
    return x;
}

}  // namespace rxmesh::test
