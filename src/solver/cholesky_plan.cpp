#include "cholesky_plan.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "rxmesh/core/error.h"

namespace rxmesh::detail {
namespace {

//! Each row's entries by ascending column (rows already sorted, the
//! common case, are taken as they are). \throw InvalidInputError when a
//! row holds a column twice.
std::vector<std::uint64_t> sorted_entries(const HostCsr& A)
{
    std::vector<std::uint64_t> sorted(A.columns.size());
    std::iota(sorted.begin(), sorted.end(), std::uint64_t(0));
    for (std::uint64_t r = 0; r < A.num_rows; ++r) {
        const auto begin = sorted.begin() + A.row_offsets[r], end = sorted.begin() + A.row_offsets[r + 1];
        const auto by_column = [&](std::uint64_t a, std::uint64_t b) { return A.columns[a] < A.columns[b]; };
        if (!std::is_sorted(begin, end, by_column)) std::sort(begin, end, by_column);
        for (auto e = begin; e != end && e + 1 != end; ++e)
            if (A.columns[*e] == A.columns[*(e + 1)])
                throw InvalidInputError("CholeskySolver: row " + std::to_string(r) +
                                        " holds column " + std::to_string(A.columns[*e]) + " twice");
    }
    return sorted;
}

//! Each entry's transposed entry, in O(nnz): the transpose by a counting
//! sort lists column c's entries (r, c) by ascending r, which for a
//! symmetric pattern are row c's columns in order, entry for entry.
//! \throw InvalidInputError when one is missing.
}  // namespace

std::vector<std::uint64_t> entry_mirrors(const HostCsr& A)
{
    const std::vector<std::uint64_t> sorted = sorted_entries(A);
    std::vector<std::uint64_t>       start(A.num_rows + 1, 0);
    for (const std::uint64_t c : A.columns) ++start[c + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
    std::vector<std::uint64_t> transposed(A.columns.size()), transposed_row(A.columns.size());
    for (std::uint64_t r = 0; r < A.num_rows; ++r)
        for (auto k = A.row_offsets[r]; k < A.row_offsets[r + 1]; ++k) {
            const std::uint64_t at = next[A.columns[sorted[k]]]++;  // (r, c) into column c
            transposed[at]         = sorted[k];
            transposed_row[at]     = r;
        }
    auto missing = [](std::uint64_t i, std::uint64_t j) {
        return InvalidInputError("CholeskySolver: the pattern is not symmetric: entry (" +
                                 std::to_string(i) + ", " + std::to_string(j) + ") has no entry (" +
                                 std::to_string(j) + ", " + std::to_string(i) + ")");
    };
    std::vector<std::uint64_t> mirror(A.columns.size());
    for (std::uint64_t c = 0; c < A.num_rows; ++c) {
        // row c's k-th column against column c's k-th row, in step
        std::uint64_t k = A.row_offsets[c], t = start[c];
        for (; k < A.row_offsets[c + 1] && t < start[c + 1]; ++k, ++t) {
            const std::uint64_t x = A.columns[sorted[k]], y = transposed_row[t];
            if (x < y) throw missing(c, x);
            if (y < x) throw missing(y, c);
            mirror[sorted[k]] = transposed[t];
        }
        if (k < A.row_offsets[c + 1]) throw missing(c, A.columns[sorted[k]]);
        if (t < start[c + 1]) throw missing(transposed_row[t], c);
    }
    return mirror;
}

namespace {

//! Each entry's slot in the panels (-1 above the diagonal in f's order),
//! a panel at a time: a row's position in the panel from one mark per row;
//! column j's entries are the mirrors of row j's (the pattern is symmetric).
std::vector<std::int64_t> slots(const HostCsr& A, const SupernodalFactor& f,
                                const CholeskyPlan& plan, const std::vector<std::uint64_t>& mirror)
{
    std::vector<std::int64_t>  slot(A.columns.size(), -1);
    std::vector<std::uint32_t> position(plan.num_rows, 0);
    std::vector<std::uint32_t> holder(plan.num_rows, ~0u);  // the panel a position is of
    for (std::uint32_t s = 0; s + 1 < plan.first_column.size(); ++s) {
        const std::uint64_t ld = plan.row_offsets[s + 1] - plan.row_offsets[s];
        for (std::uint64_t k = 0; k < ld; ++k) {
            position[plan.rows[plan.row_offsets[s] + k]] = std::uint32_t(k);
            holder[plan.rows[plan.row_offsets[s] + k]]   = s;
        }
        for (std::uint32_t j = plan.first_column[s]; j < plan.first_column[s + 1]; ++j) {
            const std::uint32_t row = f.order.new_to_old[j];
            for (auto e = A.row_offsets[row]; e < A.row_offsets[row + 1]; ++e) {
                const std::uint32_t i = f.order.old_to_new[A.columns[e]];
                if (i < j) continue;
                if (holder[i] != s)
                    throw Error("CholeskySolver: entry (" + std::to_string(A.columns[e]) + ", " +
                                std::to_string(row) + ") is in no panel (an analysis bug)");
                slot[mirror[e]] = std::int64_t(plan.value_offsets[s] +
                                               (j - plan.first_column[s]) * ld + position[i]);
            }
        }
    }
    return slot;
}

void plan_tiles(CholeskyPlan& plan)
{
    const std::size_t levels = plan.level_offsets.size() - 1;
    plan.tile_start.assign(plan.level_supernodes.size(), 0);
    plan.level_tiles.assign(levels, 0);
    for (std::size_t l = 0; l < levels; ++l) {
        std::uint64_t tiles = 0;
        for (std::uint32_t k = plan.level_offsets[l]; k < plan.level_offsets[l + 1]; ++k) {
            const std::uint32_t s     = plan.level_supernodes[k];
            const std::uint64_t rows  = plan.row_offsets[s + 1] - plan.row_offsets[s];
            const std::uint64_t below = rows - (plan.first_column[s + 1] - plan.first_column[s]);
            plan.tile_start[k]        = std::uint32_t(tiles);
            tiles += update_tiles(below);
        }
        if (tiles > std::numeric_limits<std::int32_t>::max())
            throw Error("CholeskySolver: level " + std::to_string(l) + " has " +
                        std::to_string(tiles) + " update tiles, more than one launch takes");
        plan.level_tiles[l] = std::uint32_t(tiles);
    }
}

std::uint32_t solve_threads(std::uint64_t widest)
{
    return widest <= 64 ? 64 : widest <= 128 ? 128 : 256;
}

//! The solves' levels: chunk rows so that a level gives about the policy's
//! target blocks (unsplit where its panels are already as many).
void plan_solve(CholeskyPlan& plan, const CholeskySolvePolicy& policy)
{
    const std::size_t levels = plan.level_offsets.size() - 1;
    plan.solve_levels.assign(levels, {});
    plan.solve_tasks.clear();
    for (std::size_t l = 0; l < levels; ++l) {
        std::uint64_t total_below = 0;
        std::uint32_t max_below = 0, max_columns = 0, max_rows = 0;
        for (std::uint32_t k = plan.level_offsets[l]; k < plan.level_offsets[l + 1]; ++k) {
            const std::uint32_t s    = plan.level_supernodes[k];
            const std::uint32_t nc   = plan.first_column[s + 1] - plan.first_column[s];
            const std::uint32_t rows = std::uint32_t(plan.row_offsets[s + 1] - plan.row_offsets[s]);
            total_below += rows - nc;
            max_below   = std::max(max_below, rows - nc);
            max_columns = std::max(max_columns, nc);
            max_rows    = std::max(max_rows, rows);
        }
        const std::uint64_t per_block = (total_below + policy.target_blocks - 1) / policy.target_blocks;
        std::uint32_t       chunk =
            std::uint32_t(std::max<std::uint64_t>(policy.min_chunk_rows, per_block));
        if (chunk >= max_below) chunk = 0;
        SolveLevel& level = plan.solve_levels[l];
        level.first_task  = std::uint32_t(plan.solve_tasks.size() / 2);
        level.chunk_rows  = chunk;
        level.max_columns = max_columns;
        // a split level's blocks read a whole diagonal block each: a full block
        level.threads = chunk != 0 ? 256 : solve_threads(std::max(max_rows, max_columns * max_columns / 16));
        for (std::uint32_t k = plan.level_offsets[l]; k < plan.level_offsets[l + 1]; ++k) {
            const std::uint32_t s     = plan.level_supernodes[k];
            const std::uint32_t below = std::uint32_t(plan.row_offsets[s + 1] - plan.row_offsets[s]) -
                                        (plan.first_column[s + 1] - plan.first_column[s]);
            for (std::uint32_t j = 0; j < solve_chunks(below, chunk); ++j) {
                plan.solve_tasks.push_back(s);
                plan.solve_tasks.push_back(j);
            }
        }
        const std::uint64_t tasks = plan.solve_tasks.size() / 2 - level.first_task;
        if (tasks > std::numeric_limits<std::int32_t>::max())
            throw Error("CholeskySolver: level " + std::to_string(l) + " has " +
                        std::to_string(tasks) + " solve tasks, more than one launch takes");
        level.tasks = std::uint32_t(tasks);
    }
}

}  // namespace

CholeskyPlan plan_cholesky(const HostCsr& A, const SupernodalFactor& f,
                           const CholeskySolvePolicy& solve, std::vector<std::uint64_t> mirror)
{
    CholeskyPlan plan;
    plan.num_rows     = f.num_columns;
    plan.first_column = f.first_column;
    plan.row_offsets  = f.row_offsets;
    plan.rows         = f.rows;
    const std::uint32_t m = f.num_supernodes();
    plan.value_offsets.assign(m + 1, 0);
    plan.column_supernode.resize(f.num_columns);
    for (std::uint32_t s = 0; s < m; ++s) {
        plan.value_offsets[s + 1] = plan.value_offsets[s] + f.num_rows_of(s) * f.num_columns_of(s);
        std::fill(plan.column_supernode.begin() + f.first_column[s],
                  plan.column_supernode.begin() + f.first_column[s + 1], s);
    }
    plan.level_offsets    = f.level_offsets.empty() ? std::vector<std::uint32_t>{0} : f.level_offsets;
    plan.level_supernodes = f.level_supernodes;
    plan_tiles(plan);
    plan_solve(plan, solve);
    plan.entry_mirror = std::move(mirror);
    plan.entry_slot   = slots(A, f, plan, plan.entry_mirror);
    for (std::uint64_t r = 0; r < A.num_rows; ++r) {
        std::int64_t diagonal = -1;
        for (auto e = A.row_offsets[r]; e < A.row_offsets[r + 1]; ++e)
            if (A.columns[e] == r) diagonal = std::int64_t(e);
        if (diagonal < 0)
            throw InvalidInputError("CholeskySolver: row " + std::to_string(r) +
                                    " has no diagonal entry in the pattern");
        plan.diagonal_entries.push_back(std::uint64_t(diagonal));
    }
    return plan;
}

}  // namespace rxmesh::detail
