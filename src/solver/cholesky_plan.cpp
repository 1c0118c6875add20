#include "cholesky_plan.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "rxmesh/core/error.h"

namespace rxmesh::detail {
namespace {

//! Each entry's transposed entry. \throw InvalidInputError when one is missing.
std::vector<std::uint64_t> mirrors(const HostCsr& A)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> by_column;  // (column, entry) per row
    std::vector<std::uint64_t>                           sorted(A.columns.size());
    for (std::uint64_t r = 0; r < A.num_rows; ++r) {
        by_column.clear();
        for (auto e = A.row_offsets[r]; e < A.row_offsets[r + 1]; ++e)
            by_column.push_back({A.columns[e], e});
        std::sort(by_column.begin(), by_column.end());
        for (std::size_t k = 1; k < by_column.size(); ++k)
            if (by_column[k].first == by_column[k - 1].first)
                throw InvalidInputError("CholeskySolver: row " + std::to_string(r) +
                                        " holds column " + std::to_string(by_column[k].first) +
                                        " twice");
        for (std::size_t k = 0; k < by_column.size(); ++k)
            sorted[A.row_offsets[r] + k] = by_column[k].second;
    }
    std::vector<std::uint64_t> mirror(A.columns.size());
    for (std::uint64_t r = 0; r < A.num_rows; ++r)
        for (auto e = A.row_offsets[r]; e < A.row_offsets[r + 1]; ++e) {
            const std::uint64_t c     = A.columns[e];
            const auto          begin = sorted.begin() + A.row_offsets[c];
            const auto          end   = sorted.begin() + A.row_offsets[c + 1];
            const auto at = std::lower_bound(begin, end, r, [&](std::uint64_t entry, std::uint64_t v) {
                return A.columns[entry] < v;
            });
            if (at == end || A.columns[*at] != r)
                throw InvalidInputError("CholeskySolver: the pattern is not symmetric: entry (" +
                                        std::to_string(r) + ", " + std::to_string(c) +
                                        ") has no entry (" + std::to_string(c) + ", " +
                                        std::to_string(r) + ")");
            mirror[e] = *at;
        }
    return mirror;
}

//! Each entry's slot in the panels (-1 above the diagonal in f's order).
std::vector<std::int64_t> slots(const HostCsr& A, const SupernodalFactor& f,
                                const CholeskyPlan& plan)
{
    std::vector<std::int64_t> slot(A.columns.size(), -1);
    for (std::uint64_t r = 0; r < A.num_rows; ++r)
        for (auto e = A.row_offsets[r]; e < A.row_offsets[r + 1]; ++e) {
            const std::uint32_t i = f.order.old_to_new[r];
            const std::uint32_t j = f.order.old_to_new[A.columns[e]];
            if (i < j) continue;
            const std::uint32_t s     = plan.column_supernode[j];
            const auto          begin = plan.rows.begin() + plan.row_offsets[s];
            const auto          end   = plan.rows.begin() + plan.row_offsets[s + 1];
            const auto          at    = std::lower_bound(begin, end, i);
            if (at == end || *at != i)
                throw Error("CholeskySolver: entry (" + std::to_string(r) + ", " +
                            std::to_string(A.columns[e]) + ") is in no panel (an analysis bug)");
            const std::uint64_t ld = plan.row_offsets[s + 1] - plan.row_offsets[s];
            slot[e] = std::int64_t(plan.value_offsets[s] + (j - plan.first_column[s]) * ld +
                                   std::uint64_t(at - begin));
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

}  // namespace

CholeskyPlan plan_cholesky(const HostCsr& A, const SupernodalFactor& f)
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
    plan.entry_mirror = mirrors(A);
    plan.entry_slot   = slots(A, f, plan);
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
