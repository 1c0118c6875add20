#include "rxmesh/reference/sparse_operators.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "rxmesh/reference/mcf.h"

namespace rxmesh::reference {

namespace {

bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

//! Entries summed per (row, column), then packed in compressed rows with
//! every vertex's diagonal present.
class Assembly
{
   public:
    explicit Assembly(std::uint32_t n) : m_rows(n) {}
    void add(std::uint32_t i, std::uint32_t j, double v) { m_rows[i][j] += v; }
    CsrMatrix finish()
    {
        CsrMatrix m;
        m.size = std::uint32_t(m_rows.size());
        m.row_offsets.assign(1, 0);
        for (std::uint32_t i = 0; i < m.size; ++i) {
            m_rows[i][i] += 0.0;  // the diagonal is always in the pattern
            for (const auto& [j, v] : m_rows[i]) {
                m.columns.push_back(j);
                m.values.push_back(v);
            }
            m.row_offsets.push_back(m.columns.size());
        }
        return m;
    }

   private:
    std::vector<std::map<std::uint32_t, double>> m_rows;
};

}  // namespace

double CsrMatrix::at(std::uint32_t i, std::uint32_t j) const
{
    const auto first = columns.begin() + std::ptrdiff_t(row_offsets[i]);
    const auto last  = columns.begin() + std::ptrdiff_t(row_offsets[i + 1]);
    const auto it    = std::lower_bound(first, last, j);
    return it != last && *it == j ? values[std::size_t(it - columns.begin())] : 0.0;
}

std::vector<double> CsrMatrix::apply(const std::vector<double>& x) const
{
    std::vector<double> y(size, 0.0);
    for (std::uint32_t i = 0; i < size; ++i)
        for (std::uint64_t k = row_offsets[i]; k < row_offsets[i + 1]; ++k)
            y[i] += values[k] * x[columns[k]];
    return y;
}

double triangle_area(const Vec3f& a, const Vec3f& b, const Vec3f& c)
{
    const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const double v[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    const double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2],
                 z = u[0] * v[1] - u[1] * v[0];
    return 0.5 * std::sqrt(x * x + y * y + z * z);
}

CsrMatrix cotangent_laplacian(const std::vector<Vec3f>& positions,
                              const std::vector<Triangle>& faces)
{
    Assembly a(std::uint32_t(positions.size()));
    for (const Triangle& t : faces) {
        if (repeats_vertex(t)) continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = t[k], j = t[(k + 1) % 3], o = t[(k + 2) % 3];
            const double w = 0.5 * cotangent(positions[o], positions[i], positions[j]);
            a.add(i, j, -w);
            a.add(j, i, -w);
            a.add(i, i, w);
            a.add(j, j, w);
        }
    }
    return a.finish();
}

CsrMatrix full_mass(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces)
{
    Assembly a(std::uint32_t(positions.size()));
    for (const Triangle& t : faces) {
        if (repeats_vertex(t)) continue;
        const double area = triangle_area(positions[t[0]], positions[t[1]], positions[t[2]]);
        for (int k = 0; k < 3; ++k) {
            a.add(t[k], t[k], area / 6);
            a.add(t[k], t[(k + 1) % 3], area / 12);
            a.add(t[(k + 1) % 3], t[k], area / 12);
        }
    }
    return a.finish();
}

std::vector<double> lumped_voronoi_mass(const std::vector<Vec3f>& positions,
                                        const std::vector<Triangle>& faces)
{
    std::vector<double> m(positions.size(), 0.0);
    for (const Triangle& t : faces) {
        if (repeats_vertex(t)) continue;
        for (int k = 0; k < 3; ++k)
            m[t[k]] += mixed_area(positions[t[k]], positions[t[(k + 1) % 3]],
                                  positions[t[(k + 2) % 3]]);
    }
    return m;
}

}  // namespace rxmesh::reference
