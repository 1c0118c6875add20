// A block's sum of one double per thread added to a global value: the CG
// baselines' reductions of d.q, one atomic per block.
#pragma once

#include <cub/block/block_reduce.cuh>

namespace rxmesh::baselines {

//! Adds the sum of `value` over the block's threads to *target; every
//! thread of the block calls it (a block-wide reduction).
template <int BlockThreads>
__device__ void add_block_sum(double value, double* target)
{
    using BlockSum = cub::BlockReduce<double, BlockThreads>;
    __shared__ typename BlockSum::TempStorage tmp;
    const double                              total = BlockSum(tmp).Sum(value);
    if (threadIdx.x == 0) atomicAdd(target, total);
}

}  // namespace rxmesh::baselines
