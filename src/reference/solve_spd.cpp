// reference::solve_spd (reference/solve_spd.h): an envelope Cholesky after
// reverse Cuthill-McKee, serial, in double.
#include "rxmesh/reference/solve_spd.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace rxmesh::reference {

namespace {

//! Reverse Cuthill-McKee: breadth first from a vertex of least degree of
//! each component, neighbours by ascending degree, reversed.
std::vector<std::uint32_t> reverse_cuthill_mckee(const CsrMatrix& A)
{
    const std::uint32_t        n = A.size;
    std::vector<std::uint32_t> degree(n), by_degree(n), order;
    for (std::uint32_t i = 0; i < n; ++i)
        degree[i] = std::uint32_t(A.row_offsets[i + 1] - A.row_offsets[i]);
    std::iota(by_degree.begin(), by_degree.end(), 0u);
    std::stable_sort(by_degree.begin(), by_degree.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return degree[a] < degree[b]; });
    std::vector<bool> seen(n, false);
    for (std::uint32_t start : by_degree) {
        if (seen[start]) continue;
        seen[start]            = true;
        const std::size_t head = order.size();
        order.push_back(start);
        for (std::size_t q = head; q < order.size(); ++q) {
            const std::uint32_t        v = order[q];
            std::vector<std::uint32_t> next;
            for (std::uint64_t k = A.row_offsets[v]; k < A.row_offsets[v + 1]; ++k)
                if (!seen[A.columns[k]]) {
                    seen[A.columns[k]] = true;
                    next.push_back(A.columns[k]);
                }
            std::stable_sort(next.begin(), next.end(), [&](std::uint32_t a, std::uint32_t b) {
                return degree[a] < degree[b];
            });
            order.insert(order.end(), next.begin(), next.end());
        }
    }
    std::reverse(order.begin(), order.end());
    return order;
}

//! L of P A P^T = L L^T, row i stored densely from its first entry.
struct Envelope
{
    std::vector<std::uint32_t> order, position;  // new -> old, old -> new
    std::vector<std::uint32_t> first;            // per new row
    std::vector<std::uint64_t> offset;           // per new row, + 1
    std::vector<double>        values;

    double& at(std::uint32_t i, std::uint32_t j) { return values[offset[i] + (j - first[i])]; }
    double at(std::uint32_t i, std::uint32_t j) const { return values[offset[i] + (j - first[i])]; }
};

Envelope envelope_of(const CsrMatrix& A)
{
    Envelope            e;
    const std::uint32_t n = A.size;
    e.order               = reverse_cuthill_mckee(A);
    e.position.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) e.position[e.order[i]] = i;
    e.first.resize(n);
    e.offset.assign(n + 1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t old = e.order[i];
        std::uint32_t       f   = i;
        for (std::uint64_t k = A.row_offsets[old]; k < A.row_offsets[old + 1]; ++k)
            f = std::min(f, e.position[A.columns[k]]);
        e.first[i]      = f;
        e.offset[i + 1] = e.offset[i] + (i - f + 1);
    }
    if (e.offset[n] > kMaxEnvelope)
        throw std::invalid_argument(
            "reference::solve_spd: the envelope factor would hold " + std::to_string(e.offset[n]) +
            " doubles, more than the reference's limit of " + std::to_string(kMaxEnvelope));
    e.values.assign(e.offset[n], 0.0);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t old = e.order[i];
        for (std::uint64_t k = A.row_offsets[old]; k < A.row_offsets[old + 1]; ++k) {
            const std::uint32_t j = e.position[A.columns[k]];
            if (j <= i) e.at(i, j) = A.values[k];
        }
    }
    return e;
}

void factor(Envelope& e, double largest_diagonal)
{
    const std::uint32_t n = std::uint32_t(e.first.size());
    for (std::uint32_t i = 0; i < n; ++i) {
        for (std::uint32_t j = e.first[i]; j < i; ++j) {
            double s = e.at(i, j);
            for (std::uint32_t k = std::max(e.first[i], e.first[j]); k < j; ++k)
                s -= e.at(i, k) * e.at(j, k);
            e.at(i, j) = s / e.at(j, j);
        }
        double d = e.at(i, i);
        for (std::uint32_t k = e.first[i]; k < i; ++k) d -= e.at(i, k) * e.at(i, k);
        if (!(d > 1e-14 * largest_diagonal) || !std::isfinite(d))
            throw std::invalid_argument(
                "reference::solve_spd: the matrix is not positive "
                "definite (pivot " +
                std::to_string(d) + " at row " + std::to_string(e.order[i]) + ")");
        e.at(i, i) = std::sqrt(d);
    }
}

}  // namespace

std::vector<double> solve_spd(const CsrMatrix& A, const std::vector<double>& b,
                              std::uint32_t columns)
{
    if (columns == 0 || b.size() != std::size_t(A.size) * columns)
        throw std::invalid_argument("reference::solve_spd: " + std::to_string(b.size()) +
                                    " right-hand side values for " + std::to_string(A.size) +
                                    " rows x " + std::to_string(columns) + " columns");
    double largest = 0;
    for (std::uint32_t i = 0; i < A.size; ++i) largest = std::max(largest, std::abs(A.at(i, i)));
    Envelope e = envelope_of(A);
    factor(e, largest);
    const std::uint32_t n = A.size;
    std::vector<double> x(b.size());
    std::vector<double> y(n);
    for (std::uint32_t c = 0; c < columns; ++c) {
        for (std::uint32_t i = 0; i < n; ++i) {
            double s = b[std::size_t(e.order[i]) * columns + c];
            for (std::uint32_t k = e.first[i]; k < i; ++k) s -= e.at(i, k) * y[k];
            y[i] = s / e.at(i, i);
        }
        for (std::uint32_t i = n; i-- > 0;) {
            y[i] /= e.at(i, i);
            for (std::uint32_t k = e.first[i]; k < i; ++k) y[k] -= e.at(i, k) * y[i];
        }
        for (std::uint32_t i = 0; i < n; ++i) x[std::size_t(e.order[i]) * columns + c] = y[i];
    }
    return x;
}

}  // namespace rxmesh::reference
