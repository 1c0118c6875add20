// The device factorization's plan, built on the host from the supernodal
// analysis: where each panel and each of A's entries lives, the levels, and
// each level's update tiles. Internal to src/solver.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/core/macros.h"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/solver/cholesky.h"
#include "rxmesh/solver/supernodes.h"

namespace rxmesh::detail {

//! The side of an update tile: a panel's rows below its diagonal block are
//! taken kUpdateTile x kUpdateTile pairs at a time.
inline constexpr std::uint32_t kUpdateTile = 32;

//! A level of the triangular solves as one launch: its tasks are
//! solve_tasks[2 first_task ..] as (supernode, chunk) pairs. A level of few
//! panels splits each panel's rows below into chunks of chunk_rows (0: one
//! chunk), a block each, so that the top of the tree, a chain of one or two
//! tall separator panels per level, is read by many blocks instead of one.
struct SolveLevel
{
    std::uint32_t first_task = 0, tasks = 0, chunk_rows = 0;
    std::uint32_t threads = 0, max_columns = 0;  // the launch's block, its widest panel
};

//! The chunks of a panel with `below` rows under its diagonal block.
RXMESH_HD inline std::uint32_t solve_chunks(std::uint32_t below, std::uint32_t chunk_rows)
{
    return chunk_rows == 0 || below <= chunk_rows ? 1 : (below + chunk_rows - 1) / chunk_rows;
}

struct CholeskyPlan
{
    std::uint32_t num_rows = 0;
    //! Panel s: columns [first_column[s], first_column[s + 1]), rows
    //! rows[row_offsets[s] ..], values at value_offsets[s], column-major
    //! with its row count as leading dimension.
    std::vector<std::uint32_t> first_column;
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint32_t> rows;
    std::vector<std::uint64_t> value_offsets;
    std::vector<std::uint32_t> column_supernode;
    std::vector<std::uint32_t> level_offsets, level_supernodes;
    //! tile_start[k]: the update tiles of level_supernodes[k]'s level before
    //! it (from 0 in each level); level_tiles[l]: that level's tiles.
    std::vector<std::uint32_t> tile_start, level_tiles;
    //! The triangular solves' launches, one per level, and their tasks.
    std::vector<SolveLevel>    solve_levels;
    std::vector<std::uint32_t> solve_tasks;
    //! For each of A's entries (in A's order): its panel slot when it lies
    //! on or below the diagonal in the analysis' order, else -1; and the
    //! index of its transposed entry.
    std::vector<std::int64_t> entry_slot;
    std::vector<std::uint64_t> entry_mirror;
    //! The diagonal entries' indices (the pivot tolerance's scale).
    std::vector<std::uint64_t> diagonal_entries;
};

//! The update tiles of a panel with `below` rows under its diagonal block.
inline std::uint64_t update_tiles(std::uint64_t below)
{
    const std::uint64_t t = (below + kUpdateTile - 1) / kUpdateTile;
    return t * (t + 1) / 2;
}

//! Each entry's transposed entry (A's order), in O(nnz).
//! \throw InvalidInputError when one is missing (the pattern is not
//! structurally symmetric) or a row holds a column twice.
std::vector<std::uint64_t> entry_mirrors(const HostCsr& pattern);

//! `mirror` is entry_mirrors(pattern).
//! \throw InvalidInputError when the pattern lacks a diagonal entry.
CholeskyPlan plan_cholesky(const HostCsr& pattern, const SupernodalFactor& f,
                           const CholeskySolvePolicy& solve, std::vector<std::uint64_t> mirror);

}  // namespace rxmesh::detail
