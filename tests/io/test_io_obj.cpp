// OBJ reader: every supported feature on small inline files, and every kind
// of bad input. Expected values come from the text written in each test.
#include <cstdlib>
#include <random>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

TriangleSoup obj(std::string_view text) { return parse(text, Format::Obj, "t.obj"); }

TEST(IoObj, TriangleAndQuad)
{
    const auto s = obj(
        "v 0 0 0\n"
        "v 1 0 0\n"
        "v 1 1 0\n"
        "v 0 1 0\n"
        "v 0.5 -2.25 7\n"
        "f 1 2 5\n"
        "f 1 2 3 4\n");
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, -2.25f, 7}};
    expect_same_positions(s.positions, pos);
    // The quad is fan-triangulated from its first corner.
    const std::vector<Triangle> faces = {{0, 1, 4}, {0, 1, 2}, {0, 2, 3}};
    EXPECT_EQ(s.faces, faces);
    EXPECT_EQ(s.dropped_faces, 0u);
    EXPECT_TRUE(s.colors.empty());
}

TEST(IoObj, PentagonFan)
{
    const auto s = obj("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n");
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}};
    EXPECT_EQ(s.faces, faces);
}

TEST(IoObj, IndexForms)
{
    const auto s = obj(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
        "vt 0 0\nvt 1 0\nvt 0 1\n"
        "vn 0 0 1\n"
        "f 1/1 2/2 3/3\n"
        "f 1//1 2//1 4//1\n"
        "f 2/2/1 3/3/1 4/1/1\n"
        "f 4 3/1 1//1\n");
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {3, 2, 0}};
    EXPECT_EQ(s.faces, faces);
}

TEST(IoObj, NegativeIndicesAreRelativeToVerticesSoFar)
{
    const auto s = obj(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
        "f -3 -2 -1\n"
        "v 5 5 5\n"
        "f -1 -2 -4\n"  // vertex 4, 3, 1
        "f -1/-1 2 1\n");
    const std::vector<Triangle> faces = {{0, 1, 2}, {3, 2, 0}, {3, 1, 0}};
    EXPECT_EQ(s.faces, faces);
}

TEST(IoObj, ForwardReferenceResolvedAtEnd)
{
    const auto s = obj("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n");
    ASSERT_EQ(s.faces.size(), 1u);
    EXPECT_EQ(s.faces[0], (Triangle{0, 1, 2}));
}

TEST(IoObj, IgnoredStatementsAndComments)
{
    const auto s = obj(
        "# a comment\n"
        "mtllib a.mtl\n"
        "o object\n"
        "g group one\n"
        "s off\n"
        "usemtl red\n"
        "   # indented comment\n"
        "v 1 2 3 # trailing comment\n"
        "vt 0.5 0.5\n"
        "vn 0 0 1\n"
        "vp 0.1\n"
        "v 4 5 6\n"
        "\n"
        "\t\n"
        "v 7 8 9\n"
        "l 1 2\n"
        "p 3\n"
        "cstype bezier\n"
        "f 1 2 3 # comment after a face\n");
    const std::vector<Vec3f> pos = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    expect_same_positions(s.positions, pos);
    ASSERT_EQ(s.faces.size(), 1u);
}

TEST(IoObj, CrlfAndNoFinalNewline)
{
    const auto s = obj("v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\n\r\nf 1 2 3");
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    expect_same_positions(s.positions, pos);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}}));
}

TEST(IoObj, LineContinuation)
{
    const auto s = obj("v 0 \\\n 0 0\nv 1 0 0\nv 0 1 \\\r\n 0\nv 2 2 2\nf 1 2 \\\n 3 \\\n 4\n"
                       "g with \\\n continued name\nf 1 2 3\n");
    ASSERT_EQ(s.positions.size(), 4u);
    EXPECT_EQ(s.positions[2], (Vec3f{0, 1, 0}));
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 3}, {0, 1, 2}};
    EXPECT_EQ(s.faces, faces);
}

TEST(IoObj, LineNumbersCountContinuations)
{
    // Line 3 continues into line 4; the bad index is on line 5.
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 \\\n0\nf 1 2 9\n"); }, "t.obj", 5);
}

TEST(IoObj, HomogeneousWIsIgnored)
{
    const auto s = obj("v 1 2 3 0.5\nv 4 5 6 1\nv 7 8 9 2\nf 1 2 3\n");
    const std::vector<Vec3f> pos = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    expect_same_positions(s.positions, pos);
    EXPECT_TRUE(s.colors.empty());
}

TEST(IoObj, VertexColors)
{
    // [0,1] components scale to 0..255: 0.2 * 255 = 51, 0.6 * 255 = 153.
    const auto s = obj("v 0 0 0 1 0 0.2\nv 1 0 0 0 1 0.6\nv 0 1 0 0.2 0.6 1\nf 1 2 3\n");
    const std::vector<Color3> colors = {{255, 0, 51}, {0, 255, 153}, {51, 153, 255}};
    EXPECT_EQ(s.colors, colors);
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    expect_same_positions(s.positions, pos);
}

TEST(IoObj, VertexColorsOnlyWhenEveryVertexHasThem)
{
    const auto s = obj("v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n");
    EXPECT_TRUE(s.colors.empty());
    EXPECT_EQ(s.positions.size(), 3u);
}

TEST(IoObj, RepeatedVertexTrianglesAreDroppedAndCounted)
{
    const auto s = obj(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
        "f 1 1 2\n"     // dropped
        "f 1 2 2 3\n"   // (1,2,2) dropped, (1,2,3) kept
        "f 3 -1 1\n");  // -1 is vertex 3: dropped
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}}));
    EXPECT_EQ(s.dropped_faces, 3u);
}

TEST(IoObj, NumberForms)
{
    const auto s = obj(
        "v 1e2 -2.5E-1 +3.\n"
        "v .5 -.125 0.000\n"
        "v -0 1e+1 2.5e0\n"
        "f 1 2 3\n");
    EXPECT_EQ(s.positions[0], (Vec3f{100.f, -0.25f, 3.f}));
    EXPECT_EQ(s.positions[1], (Vec3f{0.5f, -0.125f, 0.f}));
    EXPECT_EQ(s.positions[2], (Vec3f{0.f, 10.f, 2.5f}));
    EXPECT_TRUE(std::signbit(s.positions[2][0])) << "-0 keeps its sign";
}

TEST(IoObj, FloatsAreCorrectlyRounded)
{
    // 16777217 lies halfway between two floats: ties go to even (16777216).
    // 1.0000000596046449 is just above the midpoint 1 + 2^-24 but its
    // nearest double IS that midpoint, so a naive text->double->float
    // conversion rounds down to 1; the correct float is 1 + 2^-23.
    const auto s = obj(
        "v 0.1 16777217 3.4028235e38\n"
        "v 1.0000000596046449 1.0000000596046447 1e-40\n"
        "v 123456789012345678901234567890 0.000000000000000000000000000001 -7.006e-46\n"
        "v 1.90711909532547 0 0\n"
        "f 1 2 3\n");
    EXPECT_EQ(s.positions[0][0], 0.1f);
    EXPECT_EQ(s.positions[0][1], 16777216.f);
    EXPECT_EQ(s.positions[0][2], 3.4028235e38f);
    EXPECT_EQ(s.positions[1][0], std::nextafter(1.f, 2.f));
    EXPECT_EQ(s.positions[1][1], 1.f);
    EXPECT_EQ(float_bits(s.positions[1][2]), float_bits(std::strtof("1e-40", nullptr)));
    EXPECT_EQ(s.positions[2][0], std::strtof("123456789012345678901234567890", nullptr));
    EXPECT_EQ(s.positions[2][1], 1e-30f);
    EXPECT_EQ(float_bits(s.positions[2][2]), float_bits(std::strtof("-7.006e-46", nullptr)));
    // 15 digits (within the fast path's exact range), nearest double exactly
    // halfway between two floats, decimal value above it: double rounding
    // picks the lower float, correct rounding the upper.
    const float ref = std::strtof("1.90711909532547", nullptr);
    ASSERT_NE(static_cast<float>(1.90711909532547), ref) << "not a double-rounding case";
    EXPECT_EQ(s.positions[3][0], ref);
}

TEST(IoObj, RandomDecimalsMatchStrtof)
{
    // glibc's strtof is correctly rounded: an independent reference.
    std::mt19937_64          rng(12345);
    std::vector<std::string> numbers;
    std::string              text;
    for (int i = 0; i < 30000; ++i) {
        std::string num;
        if (rng() % 2)
            num += '-';
        const int digits = 1 + static_cast<int>(rng() % 20);
        const int dot    = static_cast<int>(rng() % (digits + 1));
        for (int d = 0; d < digits; ++d) {
            if (d == dot)
                num += '.';
            num += static_cast<char>('0' + rng() % 10);
        }
        if (rng() % 4 == 0)
            num += "e" + std::to_string(static_cast<int>(rng() % 80) - 40);
        if (!std::isfinite(std::strtof(num.c_str(), nullptr)))
            continue;  // beyond float range; covered by NanAndInfCoordinates
        numbers.push_back(num);
    }
    for (std::size_t i = 0; i + 2 < numbers.size(); i += 3)
        text += "v " + numbers[i] + " " + numbers[i + 1] + " " + numbers[i + 2] + "\n";
    text += "f 1 2 3\n";
    const auto s = obj(text);
    ASSERT_EQ(s.positions.size(), numbers.size() / 3);
    for (std::size_t i = 0; i < s.positions.size() * 3; ++i) {
        const float ref = std::strtof(numbers[i].c_str(), nullptr);
        ASSERT_EQ(float_bits(s.positions[i / 3][i % 3]), float_bits(ref)) << numbers[i];
    }
}

TEST(IoObj, LongCommentLineAndLongFace)
{
    std::string text = "# " + std::string(3 << 20, 'x') + "\n";
    text += "v 0 0 0\nv 1 0 0\nv 0 1 0\nf";
    for (int i = 0; i < 100000; ++i)
        text += " 1 2 3";
    text += "\n";
    const auto s = obj(text);
    // 300000 corners -> 299998 fan triangles; those with a repeated index
    // are dropped. Fan triangle k is (1, c[k], c[k+1]) with corners
    // c = 1 2 3 1 2 3 ...: it is valid only when {c[k], c[k+1]} = {2, 3}.
    std::uint64_t kept = 0, dropped = 0;
    const int     c[3] = {1, 2, 3};
    for (int k = 1; k + 1 < 300000; ++k) {
        const int a = c[k % 3], b = c[(k + 1) % 3];
        (a != 1 && b != 1 && a != b) ? ++kept : ++dropped;
    }
    EXPECT_EQ(s.faces.size(), kept);
    EXPECT_EQ(s.dropped_faces, dropped);
}

// ---- bad input ------------------------------------------------------------

TEST(IoObj, IndexOutOfRange)
{
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\nf 1 2 5\n"); }, "t.obj", 5,
                        "out of range");
}

TEST(IoObj, IndexZero)
{
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\n# c\nf 0 1 2\n"); }, "t.obj", 5, "0");
}

TEST(IoObj, RelativeIndexTooNegative)
{
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\nv 1 1 1\n"); }, "t.obj", 4,
                        "-4");
}

TEST(IoObj, HugeIndex)
{
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999\n"); }, "t.obj", 4);
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999999\n"); },
                            "t.obj", 4);
}

TEST(IoObj, FaceWithTooFewVertices)
{
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n"); }, "t.obj", 4,
                            "at least 3");
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf\n"); }, "t.obj", 5,
                            "at least 3");
}

TEST(IoObj, NanAndInfCoordinates)
{
    expect_invalid_line([] { obj("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 2, "NaN");
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 -inf\nf 1 2 3\n"); }, "t.obj", 3);
    // Beyond float range is infinite as a float.
    expect_invalid_line([] { obj("v 1e39 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 1);
    expect_invalid_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1e99999999 0\nf 1 2 3\n"); }, "t.obj", 3);
}

TEST(IoObj, MalformedNumbers)
{
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 2\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 2,
                            "x y z");
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0x\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 2,
                            "0x");
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 3.1+e2\nf 1 2 3\n"); }, "t.obj", 3);
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3a\n"); }, "t.obj", 4);
    expect_parse_error_line([] { obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 +-3\n"); }, "t.obj", 4);
    expect_parse_error_line([] { obj("v 0 0 0\nv +-1 0 0\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 2);
    expect_parse_error_line([] { obj("v 1 2 3 4 5 6 7 8\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"); }, "t.obj", 1,
                            "too many");
}

TEST(IoObj, Garbage)
{
    expect_parse_error_line([] { obj("v 0 0 0\n\x01\x02\x03 garbage\n"); }, "t.obj", 2, "keyword");
    expect_parse_error_line([] { obj("v 0 0 0\n12 13 14\n"); }, "t.obj", 2);
}

TEST(IoObj, EmptyAndFaceless)
{
    expect_error<InvalidInputError>([] { obj(""); }, {"t.obj", "no faces"});
    expect_error<InvalidInputError>([] { obj("# only a comment\n\n"); }, {"t.obj", "no faces"});
    expect_error<InvalidInputError>([] { obj("v 0 0 0\nv 1 1 1\n"); }, {"t.obj", "no faces"});
    expect_error<InvalidInputError>([] { obj("v 0 0 0\nv 1 1 1\nf 1 1 2\n"); },
                                    {"t.obj", "no faces"});
}

TEST(IoObj, Utf16IsRejected)
{
    const std::string le("\xFF\xFEv\0 \0" "0\0", 8);
    expect_parse_error_byte([&] { obj(le); }, "t.obj", 0, "UTF-16");
    const std::string be("\xFE\xFF\0v\0 \0" "0", 8);
    expect_parse_error_byte([&] { obj(be); }, "t.obj", 0, "UTF-16");
    const std::string nobom("v\0 \0" "0\0 \0", 8);
    expect_parse_error_byte([&] { obj(nobom); }, "t.obj", 1, "NUL");
}

TEST(IoObj, MegabyteLines)
{
    // A vertex line with a million values stops at the first extra one.
    std::string many = "v";
    for (int i = 0; i < 500000; ++i)
        many += " 1";
    many += "\nf 1 1 1\n";
    expect_parse_error_line([&] { obj(many); }, "t.obj", 1, "too many");
    // A number with a million digits overflows float: not finite.
    const std::string big = "v 1" + std::string(1 << 20, '0') + " 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    expect_invalid_line([&] { obj(big); }, "t.obj", 1);
    // ...and a million zeros after the point is just zero.
    const auto s = obj("v 0." + std::string(1 << 20, '0') + "1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    EXPECT_EQ(s.positions[0][0], 0.f);
}

TEST(IoObj, ReadFromFileUsesPathInMessages)
{
    const std::string path = write_tmp("io_obj_bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
    expect_invalid_line([&] { io::read(path); }, path, 4);
    const std::string good = write_tmp("io_obj_good.OBJ", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    EXPECT_EQ(io::read(good).faces.size(), 1u);
}

}  // namespace
}  // namespace rxmesh::test
