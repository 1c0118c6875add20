// STL reader: ascii and binary told apart by content, soup semantics (three
// new vertices per triangle), and bad input.
#include <cstdint>
#include <cstring>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

TriangleSoup stl(const std::string& bytes) { return parse(bytes, Format::Stl, "t.stl"); }

//! Binary STL image: 80-byte header, count, 50 bytes per triangle.
std::string binary_stl(const std::string& header80, const std::vector<std::array<Vec3f, 3>>& tris,
                       std::int64_t count_override = -1)
{
    std::string out = header80;
    out.resize(80, ' ');
    const std::uint32_t n = count_override >= 0 ? static_cast<std::uint32_t>(count_override)
                                                : static_cast<std::uint32_t>(tris.size());
    for (int k = 0; k < 4; ++k)
        out += static_cast<char>((n >> (8 * k)) & 0xFF);
    auto put = [&](float f) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        for (int k = 0; k < 4; ++k)
            out += static_cast<char>((u >> (8 * k)) & 0xFF);
    };
    for (const auto& t : tris) {
        put(0.f), put(0.f), put(1.f);  // normal
        for (const Vec3f& v : t)
            put(v[0]), put(v[1]), put(v[2]);
        out += std::string(2, '\0');  // attribute byte count
    }
    return out;
}

const std::vector<std::array<Vec3f, 3>> kTwoTriangles = {
    {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}},
    {{{1, 0, 0}, {1, 1, 0}, {0, 1, 0}}}};  // shares two corners with the first

TEST(IoStl, AsciiSingleFacet)
{
    const auto s = stl(
        "solid test\n"
        "  facet normal 0 0 1\n"
        "    outer loop\n"
        "      vertex 1.5 -2 0.25\n"
        "      vertex -1 1e1 0\n"
        "      vertex 0 -1 3\n"
        "    endloop\n"
        "  endfacet\n"
        "endsolid test\n");
    const std::vector<Vec3f> pos = {{1.5f, -2, 0.25f}, {-1, 10, 0}, {0, -1, 3}};
    expect_same_positions(s.positions, pos);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}}));
    EXPECT_EQ(s.dropped_faces, 0u);
}

TEST(IoStl, AsciiIsASoupWithoutWelding)
{
    const auto s = stl(
        "solid two\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
        "endfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\n"
        "endfacet\nendsolid two");
    ASSERT_EQ(s.positions.size(), 6u);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {3, 4, 5}}));
    EXPECT_EQ(s.positions[1], s.positions[3]);
}

TEST(IoStl, AsciiMultipleAndEmptySolidsCrlfUppercase)
{
    const auto s = stl(
        "solid a\r\n"
        "FACET NORMAL 0 0 1\r\n OUTER LOOP\r\n  VERTEX 1 1 0\r\n  VERTEX -1 1 0\r\n  VERTEX 0 -1 0\r\n"
        " ENDLOOP\r\nENDFACET\r\n"
        "endsolid a\r\n"
        "solid empty\r\nendsolid empty\r\n"
        "solid\r\n"
        "facet normal nan nan nan\r\nouter loop\r\nvertex 3 3 0\r\nvertex 2 3 0\r\nvertex 0 2 0\r\n"
        "endloop\r\nendfacet\r\n"
        "endsolid\r\n");
    const std::vector<Vec3f> pos = {{1, 1, 0}, {-1, 1, 0}, {0, -1, 0}, {3, 3, 0}, {2, 3, 0}, {0, 2, 0}};
    expect_same_positions(s.positions, pos);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {3, 4, 5}}));
}

TEST(IoStl, BinaryWithSolidHeaderIsReadAsBinary)
{
    // Many exporters start the binary header with "solid".
    const std::string bytes = binary_stl("solid exported by some tool", kTwoTriangles);
    ASSERT_EQ(bytes.size(), 84u + 2 * 50);
    const auto s = stl(bytes);
    std::vector<Vec3f> pos;
    for (const auto& t : kTwoTriangles)
        pos.insert(pos.end(), t.begin(), t.end());
    expect_same_positions(s.positions, pos);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {3, 4, 5}}));
}

TEST(IoStl, BinaryPlainHeaderAndTrailingPadding)
{
    std::string bytes = binary_stl("binary header", kTwoTriangles);
    EXPECT_EQ(stl(bytes).faces.size(), 2u);
    bytes += std::string(7, '\0');  // some exporters pad; ignored
    EXPECT_EQ(stl(bytes).faces.size(), 2u);
}

// ---- bad input ------------------------------------------------------------

TEST(IoStl, BinaryTruncated)
{
    const std::string bytes = binary_stl("binary header", kTwoTriangles);
    // The count field (at byte 80) promises more than the file holds.
    expect_parse_error_byte([&] { stl(bytes.substr(0, bytes.size() - 1)); }, "t.stl", 80, "2 triangles");
    expect_parse_error_byte([&] { stl(binary_stl("x", kTwoTriangles, 4000000000LL)); }, "t.stl", 80,
                            "4000000000");
}

TEST(IoStl, BinaryNanCoordinate)
{
    auto tris     = kTwoTriangles;
    tris[1][2][1] = std::nanf("");
    // Triangle 1, corner 2: 84 + 50 * 1 + 12 (normal) + 12 * 2.
    expect_invalid_byte([&] { stl(binary_stl("h", tris)); }, "t.stl", 84 + 50 + 12 + 24, "NaN");
    tris          = kTwoTriangles;
    tris[0][0][0] = HUGE_VALF;
    expect_invalid_byte([&] { stl(binary_stl("h", tris)); }, "t.stl", 84 + 12, "infinite");
}

TEST(IoStl, BinaryWithoutTriangles)
{
    expect_error<InvalidInputError>([] { stl(binary_stl("h", {})); }, {"t.stl", "no faces"});
}

TEST(IoStl, AsciiErrors)
{
    const std::string head = "solid s\nfacet normal 0 0 1\nouter loop\n";
    // Missing coordinate (line 5).
    expect_parse_error_line([&] { stl(head + "vertex 0 0 0\nvertex 1 0\nvertex 0 1 0\n"); }, "t.stl", 5,
                            "vertex coordinate");
    // Unknown keyword where a vertex or endloop belongs.
    expect_parse_error_line([&] { stl(head + "vertex 0 0 0\nvertx 1 0 0\n"); }, "t.stl", 5, "vertx");
    // Fewer than three vertices.
    expect_parse_error_line([&] { stl(head + "vertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n"); },
                            "t.stl", 6, "expected 3");
    // Truncated: no endfacet / endsolid.
    expect_parse_error_line(
        [&] { stl(head + "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"); }, "t.stl", 8,
        "endfacet");
    expect_parse_error_line(
        [&] { stl(head + "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"); }, "t.stl", 9,
        "endsolid");
    // NaN coordinate.
    expect_invalid_line([&] { stl(head + "vertex 0 0 0\nvertex 1 nan 0\nvertex 0 1 0\n"); }, "t.stl", 5,
                        "NaN");
    // Garbage between solids.
    expect_parse_error_line([&] { stl("solid a\nendsolid a\ngarbage\n"); }, "t.stl", 3, "'solid'");
}

TEST(IoStl, NotAnStlAtAll)
{
    expect_parse_error_byte([] { stl(""); }, "t.stl", 0, "not an STL");
    expect_parse_error_byte([] { stl("hello"); }, "t.stl", 0, "not an STL");
    expect_error<InvalidInputError>([] { stl("solid x\nendsolid x\n"); }, {"t.stl", "no faces"});
    const std::string utf16("\xFF\xFEs\0o\0l\0i\0d\0", 12);
    expect_parse_error_byte([&] { stl(utf16); }, "t.stl", 0, "UTF-16");
}

TEST(IoStl, ReadFromFile)
{
    const std::string path = write_tmp("io_stl_bin.STL", binary_stl("solid but binary", kTwoTriangles));
    EXPECT_EQ(io::read(path).faces.size(), 2u);
}

}  // namespace
}  // namespace rxmesh::test
