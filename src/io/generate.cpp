// Generated meshes with known topology. Every closed or open surface here is
// consistently oriented: faces are counter-clockwise seen from outside (from
// +z for planar ones), so every interior edge is walked once in each
// direction by its two faces.
#include "rxmesh/io/generate.h"

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"

namespace rxmesh::generate {
namespace {

constexpr double kPi = 3.14159265358979323846;

void require(bool ok, const char* function, const std::string& what)
{
    if (!ok)
        throw InvalidInputError(std::string("generate::") + function + ": " + what);
}

//! Throws unless `count` vertices or faces fit in 32-bit ids.
void require_fits(const char* function, long double count)
{
    require(count < 4294967295.0L, function,
            "the mesh would be too large for 32-bit ids");
}

std::uint32_t u32(long long v) { return static_cast<std::uint32_t>(v); }

//! Two CCW triangles of the CCW quad (a, b, c, d).
void push_quad(std::vector<Triangle>& faces,
               std::uint32_t          a,
               std::uint32_t          b,
               std::uint32_t          c,
               std::uint32_t          d)
{
    faces.push_back({a, b, c});
    faces.push_back({a, c, d});
}

//! The 2 * nu * nv triangles of an nu x nv grid of quads whose cell (i, j)
//! has the CCW corners id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1).
template <typename Id>
void push_quad_grid(std::vector<Triangle>& faces, int nu, int nv, Id id)
{
    faces.reserve(std::size_t(2) * nu * nv);
    for (int j = 0; j < nv; ++j)
        for (int i = 0; i < nu; ++i)
            push_quad(faces, id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
}

//! "a x b", for messages about grid sizes.
std::string size_text(int a, int b)
{
    return std::to_string(a) + " x " + std::to_string(b);
}

void normalize(Vec3f& p)
{
    const double n = std::sqrt(double(p[0]) * p[0] + double(p[1]) * p[1] +
                               double(p[2]) * p[2]);
    for (float& x : p)
        x = static_cast<float>(x / n);
}

TriangleSoup icosahedron()
{
    const float t = static_cast<float>((1.0 + std::sqrt(5.0)) / 2.0);
    TriangleSoup m;
    m.positions = {{-1, t, 0}, {1, t, 0},  {-1, -t, 0}, {1, -t, 0},
                   {0, -1, t}, {0, 1, t},  {0, -1, -t}, {0, 1, -t},
                   {t, 0, -1}, {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    m.faces = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
               {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
               {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
               {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (Vec3f& p : m.positions)
        normalize(p);
    return m;
}

}  // namespace

TriangleSoup icosphere(int subdivisions)
{
    require(subdivisions >= 0 && subdivisions <= 13, "icosphere",
            "subdivisions must be in [0, 13], got " + std::to_string(subdivisions));
    TriangleSoup m = icosahedron();
    for (int s = 0; s < subdivisions; ++s) {
        m = refine(m);
        for (Vec3f& p : m.positions)
            normalize(p);
    }
    return m;
}

TriangleSoup sphere_cap(int subdivisions, float height)
{
    require(height > -1.f && height < 1.f, "sphere_cap",
            "height must be in (-1, 1), got " + std::to_string(height));
    const TriangleSoup         sphere = icosphere(subdivisions);
    TriangleSoup               out;
    std::vector<std::uint32_t> id(sphere.positions.size(), ~0u);
    for (const Triangle& f : sphere.faces) {
        if (!(sphere.positions[f[0]][2] < height && sphere.positions[f[1]][2] < height &&
              sphere.positions[f[2]][2] < height))
            continue;
        Triangle g;
        for (int k = 0; k < 3; ++k) {
            if (id[f[k]] == ~0u) {
                id[f[k]] = static_cast<std::uint32_t>(out.positions.size());
                out.positions.push_back(sphere.positions[f[k]]);
            }
            g[k] = id[f[k]];
        }
        out.faces.push_back(g);
    }
    return out;
}

TriangleSoup torus(int nu, int nv, float major_radius, float minor_radius)
{
    require(nu >= 3 && nv >= 3, "torus",
            "nu and nv must be >= 3, got " + size_text(nu, nv));
    require_fits("torus", 2.0L * nu * nv);
    TriangleSoup m;
    // vertex (i, j): i around the axis (angle u), j around the tube (angle v)
    auto id = [&](int i, int j) { return u32((long long)(j % nv) * nu + (i % nu)); };
    m.positions.reserve(std::size_t(nu) * nv);
    for (int j = 0; j < nv; ++j) {
        const double v = 2.0 * kPi * j / nv;
        for (int i = 0; i < nu; ++i) {
            const double u = 2.0 * kPi * i / nu;
            const double r = major_radius + minor_radius * std::cos(v);
            m.positions.push_back({static_cast<float>(r * std::cos(u)),
                                   static_cast<float>(r * std::sin(u)),
                                   static_cast<float>(minor_radius * std::sin(v))});
        }
    }
    // dP/du x dP/dv points outward, so (i,j) (i+1,j) (i+1,j+1) (i,j+1) is CCW
    push_quad_grid(m.faces, nu, nv, id);
    return m;
}

TriangleSoup grid(int nx, int ny)
{
    require(nx >= 1 && ny >= 1, "grid",
            "nx and ny must be >= 1, got " + size_text(nx, ny));
    require_fits("grid", 2.0L * (nx + 1.0L) * (ny + 1.0L));
    TriangleSoup m;
    auto id = [&](int i, int j) { return u32((long long)j * (nx + 1) + i); };
    m.positions.reserve(std::size_t(nx + 1) * (ny + 1));
    for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i)
            m.positions.push_back({static_cast<float>(i) / static_cast<float>(nx),
                                   static_cast<float>(j) / static_cast<float>(ny),
                                   0.f});
    push_quad_grid(m.faces, nx, ny, id);
    return m;
}

TriangleSoup cylinder(int nu, int nv)
{
    require(nu >= 3 && nv >= 1, "cylinder",
            "nu must be >= 3 and nv >= 1, got " + size_text(nu, nv));
    require_fits("cylinder", 2.0L * nu * (nv + 1.0L));
    TriangleSoup m;
    // vertex (i, j): i around the axis, j in [0, nv] along it (z in [0, 1])
    auto id = [&](int i, int j) { return u32((long long)j * nu + (i % nu)); };
    m.positions.reserve(std::size_t(nu) * (nv + 1));
    for (int j = 0; j <= nv; ++j)
        for (int i = 0; i < nu; ++i) {
            const double u = 2.0 * kPi * i / nu;
            m.positions.push_back({static_cast<float>(std::cos(u)),
                                   static_cast<float>(std::sin(u)),
                                   static_cast<float>(j) / static_cast<float>(nv)});
        }
    push_quad_grid(m.faces, nu, nv, id);
    return m;
}

TriangleSoup components(int count, int subdivisions)
{
    require(count >= 0, "components", "count must be >= 0");
    const TriangleSoup one = icosphere(subdivisions);
    require_fits("components", (long double)count * one.faces.size());
    TriangleSoup m;
    m.positions.reserve(one.positions.size() * count);
    m.faces.reserve(one.faces.size() * count);
    for (int c = 0; c < count; ++c) {
        const auto base = static_cast<std::uint32_t>(m.positions.size());
        const float dx = 3.f * static_cast<float>(c);
        for (const Vec3f& p : one.positions)
            m.positions.push_back({p[0] + dx, p[1], p[2]});
        for (const Triangle& t : one.faces)
            m.faces.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
    return m;
}

TriangleSoup bowtie()
{
    TriangleSoup m;
    // vertex 0 is the shared (non-manifold) vertex; both faces CCW from +z
    m.positions = {{0.f, 0.f, 0.f},
                   {1.f, -0.5f, 0.f},
                   {1.f, 0.5f, 0.f},
                   {-1.f, 0.5f, 0.f},
                   {-1.f, -0.5f, 0.f}};
    m.faces     = {{0, 1, 2}, {0, 3, 4}};
    return m;
}

TriangleSoup fin(int k)
{
    require(k >= 1, "fin", "k must be >= 1, got " + std::to_string(k));
    TriangleSoup m;
    // shared edge (0, 1) along z; wing i has tip 2 + i. Wings alternate the
    // direction they walk the shared edge, so fin(2) is an oriented sheet.
    m.positions = {{0.f, 0.f, 0.f}, {0.f, 0.f, 1.f}};
    for (int i = 0; i < k; ++i) {
        const double a = 2.0 * kPi * i / k;
        m.positions.push_back(
            {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)), 0.5f});
        const auto tip = u32(2 + i);
        if (i % 2 == 0)
            m.faces.push_back({0, 1, tip});
        else
            m.faces.push_back({1, 0, tip});
    }
    return m;
}

TriangleSoup isolated_faces(int count)
{
    require(count >= 0, "isolated_faces", "count must be >= 0");
    require_fits("isolated_faces", 3.0L * count);
    TriangleSoup m;
    m.positions.reserve(std::size_t(3) * count);
    m.faces.reserve(count);
    for (int i = 0; i < count; ++i) {
        const float x = 2.f * static_cast<float>(i);
        m.positions.push_back({x, 0.f, 0.f});
        m.positions.push_back({x + 1.f, 0.f, 0.f});
        m.positions.push_back({x, 1.f, 0.f});
        m.faces.push_back({u32(3LL * i), u32(3LL * i + 1), u32(3LL * i + 2)});
    }
    return m;
}

TriangleSoup with_degenerate_faces()
{
    TriangleSoup m = grid(3, 3);  // 16 vertices, 18 faces
    m.faces.push_back({0, 0, 1});     // repeats corners 0 and 1
    m.faces.push_back({5, 6, 5});     // repeats corners 0 and 2
    m.faces.push_back({10, 10, 10});  // all three equal
    static_assert(kDegenerateFaceCount == 3, "keep the count in generate.h");
    return m;
}

TriangleSoup fan(int valence)
{
    require(valence >= 3, "fan", "valence must be >= 3, got " + std::to_string(valence));
    TriangleSoup m;
    // vertex 0 is the apex (centre), 1..valence the rim, CCW seen from +z
    m.positions.reserve(std::size_t(valence) + 1);
    m.positions.push_back({0.f, 0.f, 1.f});
    for (int i = 0; i < valence; ++i) {
        const double a = 2.0 * kPi * i / valence;
        m.positions.push_back(
            {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)), 0.f});
    }
    for (int i = 0; i < valence; ++i)
        m.faces.push_back({0, u32(1 + i), u32(1 + (i + 1) % valence)});
    return m;
}

TriangleSoup duplicated_quad_grid(int n)
{
    require(n >= 1, "duplicated_quad_grid", "n must be >= 1, got " + std::to_string(n));
    require_fits("duplicated_quad_grid", 5.0L * n * n);
    TriangleSoup m;
    m.positions.reserve(std::size_t(5) * n * n);
    m.faces.reserve(std::size_t(2) * n * n);
    // one float per integer grid coordinate: equal corners are bit-identical
    auto coord = [n](long long i) {
        return static_cast<float>(static_cast<double>(i) / static_cast<double>(n));
    };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const auto b = static_cast<std::uint32_t>(m.positions.size());
            m.positions.push_back({coord(i), coord(j), 0.f});
            m.positions.push_back({coord(i + 1), coord(j), 0.f});
            m.positions.push_back({coord(i + 1), coord(j + 1), 0.f});
            m.positions.push_back({coord(i), coord(j + 1), 0.f});
            m.positions.push_back(  // centre: unused by any face
                {static_cast<float>((i + 0.5) / n), static_cast<float>((j + 0.5) / n),
                 0.f});
            push_quad(m.faces, b, b + 1, b + 2, b + 3);
        }
    return m;
}

TriangleSoup refine(const TriangleSoup& mesh)
{
    require_fits("refine", 4.0L * mesh.faces.size() + 3.0L * mesh.faces.size() +
                               mesh.positions.size());
    for (std::size_t f = 0; f < mesh.faces.size(); ++f)
        for (std::uint32_t v : mesh.faces[f])
            require(v < mesh.positions.size(), "refine",
                    "face " + std::to_string(f) + " references vertex " +
                        std::to_string(v) + " out of range");
    TriangleSoup out;
    out.positions     = mesh.positions;
    out.dropped_faces = mesh.dropped_faces;
    const bool colors = !mesh.colors.empty();
    if (colors) {
        require(mesh.colors.size() == mesh.positions.size(), "refine",
                "colors must be empty or one per position");
        out.colors = mesh.colors;
    }

    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
        const auto key = std::make_pair(std::min(a, b), std::max(a, b));
        auto it = midpoints.find(key);
        if (it != midpoints.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(out.positions.size());
        // read through mesh.positions: out.positions may reallocate
        const Vec3f& p = mesh.positions[key.first];
        const Vec3f& q = mesh.positions[key.second];
        out.positions.push_back(
            {(p[0] + q[0]) * 0.5f, (p[1] + q[1]) * 0.5f, (p[2] + q[2]) * 0.5f});
        if (colors) {
            const Color3& c = mesh.colors[key.first];
            const Color3& d = mesh.colors[key.second];
            out.colors.push_back({static_cast<std::uint8_t>((c[0] + d[0]) / 2),
                                  static_cast<std::uint8_t>((c[1] + d[1]) / 2),
                                  static_cast<std::uint8_t>((c[2] + d[2]) / 2)});
        }
        midpoints.emplace(key, id);
        return id;
    };

    out.faces.reserve(mesh.faces.size() * 4);
    for (const Triangle& t : mesh.faces) {
        const std::uint32_t a = t[0], b = t[1], c = t[2];
        const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c),
                            ca = midpoint(c, a);
        out.faces.push_back({a, ab, ca});
        out.faces.push_back({ab, b, bc});
        out.faces.push_back({ca, bc, c});
        out.faces.push_back({ab, bc, ca});
    }
    return out;
}

namespace {

//! Mean length over the faces' edges (each face contributes its three, so an
//! interior edge counts twice); 0 without faces. Throws on an index out of
//! range, naming `function`.
double mean_face_edge_length(const TriangleSoup& mesh, const char* function)
{
    double length = 0;
    for (std::size_t f = 0; f < mesh.faces.size(); ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t ia = mesh.faces[f][k], ib = mesh.faces[f][(k + 1) % 3];
            require(ia < mesh.positions.size() && ib < mesh.positions.size(), function,
                    "face " + std::to_string(f) + " references a vertex out of range");
            const Vec3f& a = mesh.positions[ia];
            const Vec3f& b = mesh.positions[ib];
            length += std::sqrt(double(a[0] - b[0]) * (a[0] - b[0]) +
                                double(a[1] - b[1]) * (a[1] - b[1]) +
                                double(a[2] - b[2]) * (a[2] - b[2]));
        }
    return mesh.faces.empty() ? 0 : length / (3.0 * mesh.faces.size());
}

//! xorshift32 mapped to [-1, 1]: the same noise on every platform.
class UnitNoise
{
   public:
    explicit UnitNoise(std::uint32_t seed) : m_state(seed ? seed : 1u) {}
    double next()
    {
        m_state ^= m_state << 13;
        m_state ^= m_state >> 17;
        m_state ^= m_state << 5;
        return double(m_state) / 4294967295.0 * 2.0 - 1.0;
    }

   private:
    std::uint32_t m_state;
};

//! Per vertex, the unit sum of cross(b - a, c - a) over its faces (the
//! area-weighted normal), in double; zero where the sum is zero.
std::vector<std::array<double, 3>> area_weighted_normals(const TriangleSoup& mesh)
{
    std::vector<std::array<double, 3>> n(mesh.positions.size(), {0.0, 0.0, 0.0});
    for (const Triangle& t : mesh.faces) {
        const Vec3f &a = mesh.positions[t[0]], &b = mesh.positions[t[1]], &c = mesh.positions[t[2]];
        const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
        const double v[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
        const double x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                             u[0] * v[1] - u[1] * v[0]};
        for (const std::uint32_t corner : t)
            for (int d = 0; d < 3; ++d)
                n[corner][d] += x[d];
    }
    for (auto& s : n) {
        const double l = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        if (l > 0)
            s = {s[0] / l, s[1] / l, s[2] / l};
    }
    return n;
}

}  // namespace

TriangleSoup noisy(const TriangleSoup& mesh, float amplitude, std::uint32_t seed)
{
    if (!(amplitude >= 0))
        throw InvalidInputError("generate::noisy: amplitude must be >= 0");
    const double mean = mean_face_edge_length(mesh, "noisy");
    TriangleSoup out  = mesh;
    UnitNoise    noise(seed);
    for (Vec3f& p : out.positions)
        for (float& c : p)
            c = float(c + amplitude * mean * noise.next());
    return out;
}

TriangleSoup normal_noise(const TriangleSoup& mesh, float amplitude, std::uint32_t seed)
{
    if (!(amplitude >= 0))
        throw InvalidInputError("generate::normal_noise: amplitude must be >= 0");
    const double mean    = mean_face_edge_length(mesh, "normal_noise");
    const auto   normals = area_weighted_normals(mesh);
    TriangleSoup out     = mesh;
    UnitNoise    noise(seed);
    for (std::size_t v = 0; v < out.positions.size(); ++v) {
        // one draw per vertex, moved or not: vertex v's offset depends on v
        // and the seed only
        const double offset = amplitude * mean * noise.next();
        for (int d = 0; d < 3; ++d)
            out.positions[v][d] = float(out.positions[v][d] + offset * normals[v][d]);
    }
    return out;
}

}  // namespace rxmesh::generate
