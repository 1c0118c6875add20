// OFF reader: header variants, comments, extra per-vertex / per-face values,
// and bad input.
#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

TriangleSoup off(std::string_view text) { return parse(text, Format::Off, "t.off"); }

const std::vector<Vec3f> kSquarePlusApex = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, 0.5f, 1.25f}};

TEST(IoOff, CountsOnNextLineWithComments)
{
    const auto s = off(
        "OFF\n"
        "# a comment between header and counts\n"
        "5 3 0\n"
        "0 0 0\n"
        "1 0 0   # comment after a vertex\n"
        "\n"
        "1 1 0\n"
        "# comment between vertices\n"
        "0 1 0\n"
        "0.5 0.5 1.25\n"
        "4 0 1 2 3\n"
        "3 0 1 4\n"
        "# comment between faces\n"
        "3 1 2 4\n");
    expect_same_positions(s.positions, kSquarePlusApex);
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 3}, {0, 1, 4}, {1, 2, 4}};
    EXPECT_EQ(s.faces, faces);
    EXPECT_EQ(s.dropped_faces, 0u);
}

TEST(IoOff, CountsOnHeaderLineAndNoEdgeCount)
{
    const auto s = off("OFF 5 1\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 1.25\n3 4 3 2");
    expect_same_positions(s.positions, kSquarePlusApex);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{4, 3, 2}}));
}

TEST(IoOff, LeadingCommentsAndCrlf)
{
    const auto s = off("# Output of a tool\r\n#CBP\r\nOFF\r\n5 2 0\r\n0 0 0\r\n1 0 0\r\n1 1 0\r\n"
                       "0 1 0\r\n0.5 0.5 1.25\r\n3 0 1 2\r\n3 2 3 0\r\n");
    expect_same_positions(s.positions, kSquarePlusApex);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {2, 3, 0}}));
}

TEST(IoOff, KeywordIsOptional)
{
    const auto s = off("3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    EXPECT_EQ(s.faces.size(), 1u);
}

TEST(IoOff, ColorsNormalsTextureAreIgnored)
{
    // COFF: r g b a per vertex; per-face colors after the indices.
    const auto coff = off("COFF\n4 2 0\n0 0 0 255 0 0 255\n1 0 0 0 255 0 255\n1 1 0 0 0 255 255\n"
                          "0 1 0 1 1 1 1\n3 0 1 2 255 0 0\n3 0 2 3 0.5 0.5 0.5 1\n");
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    expect_same_positions(coff.positions, pos);
    EXPECT_EQ(coff.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}}));
    // NOFF: normals. CNOFF: colors then normals. STOFF: texture coordinates.
    const auto noff = off("NOFF\n4 1 0\n0 0 0 0 0 1\n1 0 0 0 0 1\n1 1 0 0 0 1\n0 1 0 0 0 1\n4 0 1 2 3\n");
    expect_same_positions(noff.positions, pos);
    EXPECT_EQ(noff.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}}));
    const auto cnoff = off("CNOFF\n4 1 0\n0 0 0 0 0 1 1 0 0\n1 0 0 0 0 1 1 0 0\n1 1 0 0 0 1 1 0 0\n"
                           "0 1 0 0 0 1 1 0 0\n4 0 1 2 3\n");
    expect_same_positions(cnoff.positions, pos);
    const auto stoff = off("STOFF\n4 1 0\n0 0 0 0 0\n1 0 0 1 0\n1 1 0 1 1\n0 1 0 0 1\n4 3 2 1 0\n");
    expect_same_positions(stoff.positions, pos);
    EXPECT_EQ(stoff.faces, (std::vector<Triangle>{{3, 2, 1}, {3, 1, 0}}));
}

TEST(IoOff, RepeatedIndicesDropped)
{
    const auto s = off("OFF\n3 3 0\n0 0 0\n1 0 0\n0 1 0\n3 0 0 1\n4 0 1 1 2\n3 2 1 0\n");
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {2, 1, 0}}));
    EXPECT_EQ(s.dropped_faces, 2u);
}

// ---- bad input ------------------------------------------------------------

TEST(IoOff, IndexOutOfRange)
{
    expect_invalid_line([] { off("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 3\n"); }, "t.off", 7,
                        "out of range");
    expect_invalid_line([] { off("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n"); }, "t.off", 6);
}

TEST(IoOff, FaceWithTooFewVertices)
{
    expect_parse_error_line([] { off("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n2 0 1\n"); }, "t.off",
                            7, "at least 3");
    expect_parse_error_line([] { off("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n0\n# padding padding\n"); },
                            "t.off", 6);
}

TEST(IoOff, FaceShorterThanItsCount)
{
    expect_parse_error_line([] { off("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1\n3 0 1 2\n# padding\n"); },
                            "t.off", 6);
}

TEST(IoOff, HugeCountsRejectedBeforeAllocation)
{
    expect_parse_error_line([] { off("OFF\n4000000000 1 0\n0 0 0\n3 0 0 0\n"); }, "t.off", 2,
                            "4000000000");
    expect_parse_error_line([] { off("OFF\n3 353535235358 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"); },
                            "t.off", 2, "353535235358");
    expect_parse_error_line([] { off("OFF\n99999999999999999999999 1 0\n"); }, "t.off", 2);
    expect_parse_error_line([] { off("OFF\n-3 1 0\n"); }, "t.off", 2);
}

TEST(IoOff, Truncated)
{
    // The header check alone catches a file far too short for its counts...
    expect_parse_error_line([] { off("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1"); }, "t.off", 2, "bytes");
    // ...otherwise the record where the data ends is named.
    expect_parse_error_line([] { off("OFF\n3 1 0\n0.000000 0 0\n1.000000 0 0\n0.0000"); }, "t.off",
                            5, "vertex 2");
    expect_parse_error_line([] { off("OFF\n3 1 0\n0.000000 0 0\n1.000000 0 0\n0.000000 1 0\n3 0 1"); },
                            "t.off", 6);
    // Enough bytes for the counts check, but too few faces.
    expect_parse_error_line(
        [] { off("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n                 \n"); }, "t.off", 8,
        "end of file");
}

TEST(IoOff, NanCoordinate)
{
    expect_invalid_line([] { off("OFF\n3 1 0\n0 0 0\nnan 0 0\n0 1 0\n3 0 1 2\n"); }, "t.off", 4,
                        "NaN");
    expect_invalid_line([] { off("OFF\n3 1 0\n0 0 0\n1 0 0\n0 inf 0\n3 0 1 2\n"); }, "t.off", 5);
}

TEST(IoOff, BadHeaders)
{
    expect_parse_error_line([] { off("XOFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"); }, "t.off", 1);
    expect_parse_error_line([] { off("PLY\n3 1 0\n"); }, "t.off", 1, "OFF");
    expect_parse_error_line([] { off("4OFF\n3 1 0\n0 0 0 1\n1 0 0 1\n0 1 0 1\n3 0 1 2\n"); },
                            "t.off", 1, "4OFF");
    expect_parse_error_line([] { off("OFF BINARY\n"); }, "t.off", 1, "binary");
    expect_parse_error_line([] { off("OFF\n3 x 0\n"); }, "t.off", 2, "face count");
    expect_parse_error_line([] { off("OFF\n3 1 0 junk\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"); }, "t.off",
                            2);
}

TEST(IoOff, EmptyAndFaceless)
{
    expect_parse_error_line([] { off(""); }, "t.off", 1);
    expect_parse_error_line([] { off("OFF\n"); }, "t.off", 2);
    expect_error<InvalidInputError>([] { off("OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n"); },
                                    {"t.off", "no faces"});
}

TEST(IoOff, Utf16IsRejected)
{
    const std::string le("\xFF\xFEO\0F\0F\0", 8);
    expect_parse_error_byte([&] { off(le); }, "t.off", 0, "UTF-16");
}

TEST(IoOff, ReadFromFile)
{
    const std::string path = write_tmp("io_off_good.Off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    EXPECT_EQ(io::read(path).faces, (std::vector<Triangle>{{0, 1, 2}}));
}

}  // namespace
}  // namespace rxmesh::test
