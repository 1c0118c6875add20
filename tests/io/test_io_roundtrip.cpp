// Writers (round trips through files) and the same mesh written by the test
// itself in every format, read back to identical faces.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

//! A soup with awkward floats: negative zero, subnormals, huge and tiny
//! magnitudes, values with 9 significant digits.
TriangleSoup random_soup(std::uint32_t seed, std::size_t nv, std::size_t nf, bool colors)
{
    std::mt19937                          rng(seed);
    std::uniform_real_distribution<float> uni(-1000.f, 1000.f);
    TriangleSoup                          s;
    for (std::size_t i = 0; i < nv; ++i) {
        Vec3f v{};
        for (float& c : v) {
            switch (rng() % 6) {
                case 0: c = uni(rng); break;
                case 1: {  // any finite bit pattern
                    std::uint32_t u;
                    do {
                        u = static_cast<std::uint32_t>(rng());
                        std::memcpy(&c, &u, 4);
                    } while (!std::isfinite(c));
                    break;
                }
                case 2: c = (rng() % 2) ? -0.f : 0.f; break;
                case 3: c = std::ldexp(uni(rng), -140); break;  // subnormal
                case 4: c = uni(rng) * 1e35f; break;
                default: c = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 8.f; break;
            }
        }
        s.positions.push_back(v);
        if (colors)
            s.colors.push_back({static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng()),
                                static_cast<std::uint8_t>(rng())});
    }
    while (s.faces.size() < nf) {
        Triangle t{static_cast<std::uint32_t>(rng() % nv), static_cast<std::uint32_t>(rng() % nv),
                   static_cast<std::uint32_t>(rng() % nv)};
        if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
            s.faces.push_back(t);
    }
    return s;
}

void expect_same_soup(const TriangleSoup& a, const TriangleSoup& b)
{
    expect_same_positions(a.positions, b.positions);
    EXPECT_EQ(a.faces, b.faces);
    EXPECT_EQ(a.colors, b.colors);
    EXPECT_EQ(b.dropped_faces, 0u);
}

//! A random soup with colors (from `seed`) and one without (from seed + 1),
//! each written by `write` to `file` and read back bit-exact.
template <typename Write>
void expect_bit_exact_round_trip(Write&& write, const std::string& file, unsigned seed)
{
    for (bool colors : {false, true}) {
        const TriangleSoup s    = random_soup(colors ? seed : seed + 1, 3000, 5000, colors);
        const std::string  path = tmp_dir() + "/" + file;
        write(path, s);
        expect_same_soup(s, io::read(path));
    }
}

TEST(IoRoundTrip, ObjBitExact)
{
    expect_bit_exact_round_trip(
        [](const std::string& path, const TriangleSoup& s) { io::write_obj(path, s); },
        "io_roundtrip.obj", 7);
}

TEST(IoRoundTrip, PlyBitExact)
{
    expect_bit_exact_round_trip(
        [](const std::string& path, const TriangleSoup& s) { io::write_ply(path, s); },
        "io_roundtrip.ply", 9);
}

TEST(IoRoundTrip, PlyScalarsAreWrittenAsDeclared)
{
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    s.faces     = {{0, 1, 2}};
    s.colors    = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    const std::vector<io::VertexScalar> scalars = {{"curvature", {0.5f, -1.f, 2.f}},
                                                   {"quality", {10.f, 20.f, 30.f}}};
    const std::string path = tmp_dir() + "/io_scalars.ply";
    io::write_ply(path, s, scalars);
    const std::string bytes = read_bytes(path);
    const std::string header_end = "end_header\n";
    const auto        body       = bytes.find(header_end);
    ASSERT_NE(body, std::string::npos);
    const std::string header = bytes.substr(0, body);
    EXPECT_NE(header.find("format binary_little_endian 1.0"), std::string::npos);
    EXPECT_NE(header.find("element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                          "property uchar red\nproperty uchar green\nproperty uchar blue\n"
                          "property float curvature\nproperty float quality\nelement face 1\n"
                          "property list uchar int vertex_indices\n"),
              std::string::npos)
        << header;
    // Vertex record: 3 floats + 3 bytes + 2 floats = 23 bytes.
    const std::size_t v0 = body + header_end.size();
    ASSERT_EQ(bytes.size(), v0 + 3 * 23 + 13);
    auto f32 = [&](std::size_t at) {
        std::uint32_t u = 0;
        for (int k = 0; k < 4; ++k)
            u |= std::uint32_t(static_cast<unsigned char>(bytes[at + k])) << (8 * k);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    };
    EXPECT_EQ(f32(v0 + 23 * 1 + 15), -1.f);  // curvature of vertex 1
    EXPECT_EQ(f32(v0 + 23 * 2 + 19), 30.f);  // quality of vertex 2
    EXPECT_EQ(static_cast<unsigned char>(bytes[v0 + 23 + 12]), 4);  // red of vertex 1
    const std::size_t f0 = v0 + 3 * 23;
    EXPECT_EQ(bytes[f0], 3);
    EXPECT_EQ(bytes[f0 + 5], 1);
    // And the reader skips the scalars.
    const auto back = io::read(path);
    expect_same_positions(back.positions, s.positions);
    EXPECT_EQ(back.colors, s.colors);
}

TEST(IoWriters, RejectBadInput)
{
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    s.faces     = {{0, 1, 3}};
    const std::string dir = tmp_dir();
    expect_error<InvalidInputError>([&] { io::write_obj(dir + "/io_bad.obj", s); }, {"face 0", "3"});
    expect_error<InvalidInputError>([&] { io::write_ply(dir + "/io_bad.ply", s); }, {"face 0"});
    s.faces = {{0, 1, 2}};
    expect_error<InvalidInputError>([&] { io::write_ply(dir + "/io_bad.ply", s, {{"q", {1.f, 2.f}}}); },
                                    {"'q'", "2 values", "3 vertices"});
    expect_error<InvalidInputError>([&] { io::write_ply(dir + "/io_bad.ply", s, {{"a b", {1, 2, 3}}}); },
                                    {"a b"});
    expect_error<InvalidInputError>([&] { io::write_ply(dir + "/io_bad.ply", s, {{"x", {1, 2, 3}}}); },
                                    {"duplicate"});
    s.colors = {{1, 2, 3}};
    expect_error<InvalidInputError>([&] { io::write_obj(dir + "/io_bad.obj", s); }, {"colors"});
    s.colors.clear();
    expect_error<IOError>([&] { io::write_obj(dir + "/no/such/dir/x.obj", s); }, {"no/such/dir/x.obj"});
    expect_error<IOError>([&] { io::write_ply(dir + "/no/such/dir/x.ply", s); }, {"no/such/dir/x.ply"});
}

// PlyWriter: the faces first, the vertices later, the same bytes as
// write_ply; a writer that never gets its vertices leaves no file.
TEST(IoWriters, PlyWriterFacesFirstWritesWhatWritePlyWrites)
{
    namespace fs = std::filesystem;
    const std::string dir = tmp_dir();
    for (bool colors : {false, true}) {
        const TriangleSoup                  s = random_soup(colors ? 21 : 22, 700, 1300, colors);
        std::vector<io::VertexScalar> scalars = {{"d", {}}, {"e", {}}};
        for (std::size_t v = 0; v < s.positions.size(); ++v) {
            scalars[0].values.push_back(float(v) * 0.5f);
            scalars[1].values.push_back(-float(v));
        }
        const std::string whole = dir + "/io_whole.ply", split = dir + "/io_split.ply";
        io::write_ply(whole, s, scalars);
        {
            io::PlyWriter w(split, s.positions.size(), s.faces, colors, {"d", "e"});
            EXPECT_TRUE(fs::exists(split));
            w.write_vertices(s.positions, s.colors, scalars);
        }
        EXPECT_EQ(read_bytes(split), read_bytes(whole)) << (colors ? "with colors" : "");
        expect_same_soup(s, io::read(split));
    }
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    s.faces     = {{0, 1, 2}};
    const std::string path = dir + "/io_unfinished.ply";
    {  // destroyed before its vertices: no file left
        io::PlyWriter w(path, 3, s.faces, false, {"d"});
        EXPECT_TRUE(fs::exists(path));
    }
    EXPECT_FALSE(fs::exists(path));
    {  // vertices that do not match the header: refused, no file left
        io::PlyWriter w(path, 3, s.faces, false, {"d"});
        expect_error<InvalidInputError>([&] { w.write_vertices(s.positions, {}, {{"e", {1, 2, 3}}}); },
                                        {"header"});
        expect_error<InvalidInputError>([&] { w.write_vertices({{0, 0, 0}}, {}, {{"d", {1}}}); },
                                        {"1 positions", "3 vertices"});
        expect_error<InvalidInputError>(
            [&] { w.write_vertices(s.positions, {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, {{"d", {1, 2, 3}}}); },
            {"colors"});
    }
    EXPECT_FALSE(fs::exists(path));
    // a face beyond the vertices or a bad name: refused before any file
    expect_error<InvalidInputError>([&] { io::PlyWriter(path, 2, s.faces, false, {}); },
                                    {"face 0", "2 vertices"});
    expect_error<InvalidInputError>([&] { io::PlyWriter(path, 3, s.faces, false, {"y"}); },
                                    {"duplicate"});
    EXPECT_FALSE(fs::exists(path));
}

TEST(IoDispatch, FormatFromPathAndMissingFiles)
{
    EXPECT_EQ(io::format_from_path("a/b.obj"), Format::Obj);
    EXPECT_EQ(io::format_from_path("A.OBJ"), Format::Obj);
    EXPECT_EQ(io::format_from_path("x.y.Off"), Format::Off);
    EXPECT_EQ(io::format_from_path("m.PlY"), Format::Ply);
    EXPECT_EQ(io::format_from_path("m.stl"), Format::Stl);
    expect_error<IOError>([] { io::format_from_path("mesh.vtk"); }, {"mesh.vtk", ".vtk"});
    expect_error<IOError>([] { io::format_from_path("dir.obj/mesh"); }, {"dir.obj/mesh"});
    expect_error<IOError>([] { io::read(tmp_dir() + "/does_not_exist.obj"); }, {"does_not_exist.obj"});
    std::filesystem::create_directories(tmp_dir() + "/io_dir.obj");
    expect_error<IOError>([] { io::read(tmp_dir() + "/io_dir.obj"); }, {"io_dir.obj"});
}

// ---- the same mesh in every format ----------------------------------------

// A box with one quad per side; coordinates that are not exact in binary.
const std::vector<Vec3f> kCorners = {{-0.1f, -0.2f, -0.3f}, {1.1f, -0.2f, -0.3f}, {1.1f, 1.7f, -0.3f},
                                     {-0.1f, 1.7f, -0.3f},  {-0.1f, -0.2f, 2.9f}, {1.1f, -0.2f, 2.9f},
                                     {1.1f, 1.7f, 2.9f},    {-0.1f, 1.7f, 2.9f}};
const std::vector<std::vector<int>> kQuads = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                              {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

// Expected triangles, fan-triangulated from each quad's first corner.
std::vector<PosTriangle> expected_triangles()
{
    std::vector<PosTriangle> out;
    for (const auto& q : kQuads)
        for (std::size_t i = 1; i + 1 < q.size(); ++i)
            out.push_back({kCorners[q[0]], kCorners[q[i]], kCorners[q[i + 1]]});
    return out;
}

std::string g9(float f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
    return buf;
}

std::string obj_text()
{
    std::string s = "# cube\n";
    for (const Vec3f& v : kCorners)
        s += "v " + g9(v[0]) + " " + g9(v[1]) + " " + g9(v[2]) + "\n";
    for (const auto& q : kQuads)
        s += "f " + std::to_string(q[0] + 1) + " " + std::to_string(q[1] + 1) + " " +
             std::to_string(q[2] + 1) + " " + std::to_string(q[3] + 1) + "\n";
    return s;
}

std::string off_text()
{
    std::string s = "OFF\n8 6 12\n";
    for (const Vec3f& v : kCorners)
        s += g9(v[0]) + " " + g9(v[1]) + " " + g9(v[2]) + "\n";
    for (const auto& q : kQuads)
        s += "4 " + std::to_string(q[0]) + " " + std::to_string(q[1]) + " " + std::to_string(q[2]) + " " +
             std::to_string(q[3]) + "\n";
    return s;
}

std::string ply_bytes(const std::string& enc)
{
    std::string s = "ply\nformat " + enc +
                    " 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                    "element face 6\nproperty list uchar int vertex_indices\nend_header\n";
    const bool big   = enc == "binary_big_endian";
    auto       put32 = [&](std::uint32_t u) {
        for (int k = 0; k < 4; ++k)
            s += static_cast<char>((u >> (8 * (big ? 3 - k : k))) & 0xFF);
    };
    for (const Vec3f& v : kCorners) {
        if (enc == "ascii") {
            s += g9(v[0]) + " " + g9(v[1]) + " " + g9(v[2]) + "\n";
        } else {
            for (float c : v)
                put32(float_bits(c));
        }
    }
    for (const auto& q : kQuads) {
        if (enc == "ascii") {
            s += "4";
            for (int i : q)
                s += " " + std::to_string(i);
            s += "\n";
        } else {
            s += static_cast<char>(4);
            for (int i : q)
                put32(static_cast<std::uint32_t>(i));
        }
    }
    return s;
}

std::string stl_ascii()
{
    std::string s = "solid cube\n";
    for (const PosTriangle& t : expected_triangles()) {
        s += " facet normal 0 0 0\n  outer loop\n";
        for (const Vec3f& v : t)
            s += "   vertex " + g9(v[0]) + " " + g9(v[1]) + " " + g9(v[2]) + "\n";
        s += "  endloop\n endfacet\n";
    }
    return s + "endsolid cube\n";
}

std::string stl_binary()
{
    std::string s = "solid cube (binary, header starts like ascii)";
    s.resize(80, ' ');
    const auto tris  = expected_triangles();
    auto       put32 = [&](std::uint32_t u) {
        for (int k = 0; k < 4; ++k)
            s += static_cast<char>((u >> (8 * k)) & 0xFF);
    };
    put32(static_cast<std::uint32_t>(tris.size()));
    for (const PosTriangle& t : tris) {
        for (int k = 0; k < 3; ++k)
            put32(0);
        for (const Vec3f& v : t)
            for (float c : v)
                put32(float_bits(c));
        s += std::string(2, '\0');
    }
    return s;
}

void expect_same_triangles(const std::vector<PosTriangle>& a, const std::vector<PosTriangle>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k)
                ASSERT_EQ(float_bits(a[i][c][k]), float_bits(b[i][c][k])) << "triangle " << i;
}

TEST(IoCrossFormat, SameMeshInEveryFormat)
{
    const auto expected = expected_triangles();
    ASSERT_EQ(expected.size(), 12u);
    struct Case
    {
        std::string file;
        std::string bytes;
        bool        soup;
    };
    const std::vector<Case> cases = {{"io_cube.obj", obj_text(), false},
                                     {"io_cube.off", off_text(), false},
                                     {"io_cube_ascii.ply", ply_bytes("ascii"), false},
                                     {"io_cube_le.ply", ply_bytes("binary_little_endian"), false},
                                     {"io_cube_be.ply", ply_bytes("binary_big_endian"), false},
                                     {"io_cube_ascii.stl", stl_ascii(), true},
                                     {"io_cube_binary.stl", stl_binary(), true}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        const TriangleSoup s = io::read(write_tmp(c.file, c.bytes));
        ASSERT_TRUE(soup_is_valid(s));
        EXPECT_EQ(s.dropped_faces, 0u);
        auto got = position_triangles(s);
        if (!c.soup) {
            // Indexed formats keep the 8 corners and the same fan.
            expect_same_positions(s.positions, kCorners);
            expect_same_triangles(got, expected);
        } else {
            // STL: three vertices per triangle; compare as a multiset.
            EXPECT_EQ(s.positions.size(), 36u);
            auto exp = expected;
            auto key = [](const PosTriangle& t) {
                std::array<std::uint32_t, 9> k{};
                for (int i = 0; i < 9; ++i)
                    k[i] = float_bits(t[i / 3][i % 3]);
                return k;
            };
            auto less = [&](const PosTriangle& a, const PosTriangle& b) { return key(a) < key(b); };
            std::sort(got.begin(), got.end(), less);
            std::sort(exp.begin(), exp.end(), less);
            expect_same_triangles(got, exp);
        }
    }
}

}  // namespace
}  // namespace rxmesh::test
