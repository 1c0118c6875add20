// PLY reader: ascii and both binary encodings, every property type, any
// property order, extra elements, and bad input. The test-side PlyFile
// writes files value by value, so expected offsets and lines come from it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

const char* const kEncodings[] = {"ascii", "binary_little_endian", "binary_big_endian"};

struct TypeInfo
{
    const char* name;
    int         size;
    bool        is_float;
    bool        is_signed;
};

TypeInfo type_info(const std::string& t)
{
    static const TypeInfo table[] = {
        {"char", 1, false, true},     {"int8", 1, false, true},     {"uchar", 1, false, false},
        {"uint8", 1, false, false},   {"short", 2, false, true},    {"int16", 2, false, true},
        {"ushort", 2, false, false},  {"uint16", 2, false, false},  {"int", 4, false, true},
        {"int32", 4, false, true},    {"uint", 4, false, false},    {"uint32", 4, false, false},
        {"float", 4, true, true},     {"float32", 4, true, true},   {"double", 8, true, true},
        {"float64", 8, true, true}};
    for (const auto& e : table)
        if (t == e.name)
            return e;
    ADD_FAILURE() << "unknown type " << t;
    return table[0];
}

//! Writes a PLY file: header lines first, then values one by one.
class PlyFile
{
   public:
    explicit PlyFile(std::string encoding) : m_enc(std::move(encoding))
    {
        m_header = "ply\nformat " + m_enc + " 1.0\n";
    }

    bool ascii() const { return m_enc == "ascii"; }

    PlyFile& line(const std::string& l)
    {
        m_header += l + "\n";
        return *this;
    }

    //! Appends one value of PLY type `type`.
    PlyFile& value(const std::string& type, double v)
    {
        const TypeInfo t = type_info(type);
        if (ascii()) {
            char buf[64];
            if (t.is_float)
                std::snprintf(buf, sizeof buf, "%.17g ", v);
            else
                std::snprintf(buf, sizeof buf, "%lld ", static_cast<long long>(v));
            m_body += buf;
            return *this;
        }
        unsigned char b[8];
        if (t.is_float && t.size == 4) {
            const float f = static_cast<float>(v);
            std::memcpy(b, &f, 4);
        } else if (t.is_float) {
            std::memcpy(b, &v, 8);
        } else if (t.is_signed) {
            const long long i = static_cast<long long>(v);
            for (int k = 0; k < t.size; ++k)  // two's complement, little end first
                b[k] = static_cast<unsigned char>((static_cast<unsigned long long>(i) >> (8 * k)) & 0xFF);
        } else {
            const unsigned long long u = static_cast<unsigned long long>(v);
            for (int k = 0; k < t.size; ++k)
                b[k] = static_cast<unsigned char>((u >> (8 * k)) & 0xFF);
        }
        // Float bytes from memcpy are in host (little-endian x86) order.
        const bool big = m_enc == "binary_big_endian";
        for (int k = 0; k < t.size; ++k)
            m_body += static_cast<char>(b[big ? t.size - 1 - k : k]);
        return *this;
    }

    PlyFile& values(const std::string& type, std::initializer_list<double> vs)
    {
        for (double v : vs)
            value(type, v);
        return *this;
    }

    //! A list: count (of count_type) then items.
    PlyFile& list(const std::string& count_type, const std::string& item_type,
                  std::initializer_list<double> items)
    {
        value(count_type, static_cast<double>(items.size()));
        return values(item_type, items);
    }

    PlyFile& end_record()
    {
        if (ascii()) {
            if (!m_body.empty() && m_body.back() == ' ')
                m_body.back() = '\n';
            else
                m_body += '\n';
        }
        return *this;
    }

    //! Byte offset in the final file where the next value will go.
    std::uint64_t offset() const { return m_header.size() + std::strlen("end_header\n") + m_body.size(); }
    //! 1-based line of the next value (ascii).
    std::uint64_t line_no() const
    {
        const std::string all = bytes();
        return 1 + static_cast<std::uint64_t>(std::count(all.begin(), all.end(), '\n'));
    }

    std::string bytes() const { return m_header + "end_header\n" + m_body; }

   private:
    std::string m_enc;
    std::string m_header;
    std::string m_body;
};

TriangleSoup ply(const std::string& bytes) { return parse(bytes, Format::Ply, "t.ply"); }

TEST(IoPly, AsciiBasic)
{
    const auto s = ply(
        "ply\n"
        "format ascii 1.0\n"
        "comment made by hand\n"
        "obj_info anything\n"
        "element vertex 5\n"
        "property float x\n"
        "property float y\n"
        "property float z\n"
        "element face 2\n"
        "property list uchar int vertex_indices\n"
        "end_header\n"
        "0 0 0\n"
        "1 0 0\n"
        "1 1 0\n"
        "0 1 0\n"
        "0.5 0.5 1.25\n"
        "4 0 1 2 3\n"
        "3 3 2 4\n");
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, 0.5f, 1.25f}};
    expect_same_positions(s.positions, pos);
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}, {3, 2, 4}}));
    EXPECT_TRUE(s.colors.empty());
}

TEST(IoPly, CrlfHeaderAndVertexIndexName)
{
    const auto s = ply(
        "ply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty float x\r\nproperty float y\r\n"
        "property float z\r\nelement face 1\r\nproperty list uchar int vertex_index\r\nend_header\r\n"
        "0 0 0\r\n1 0 0\r\n0 1 0\r\n3 2 1 0\r\n");
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{2, 1, 0}}));
}

// Every encoding: properties in an odd order, lists inside the vertex, and
// extra elements before, between and after vertex and face.
TEST(IoPly, AnyPropertyOrderAndExtraElements)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile f(enc);
        f.line("comment extra elements everywhere")
            .line("element material 2")
            .line("property uchar ambient_red")
            .line("property list uchar float coeffs")
            .line("property double shininess")
            .line("element vertex 4")
            .line("property double nx")
            .line("property float z")
            .line("property uchar red")
            .line("property short flags")
            .line("property float y")
            .line("property uchar green")
            .line("property list uchar int neighbours")
            .line("property float x")
            .line("property uchar blue")
            .line("element edge 2")
            .line("property int vertex1")
            .line("property int vertex2")
            .line("element face 2")
            .line("property uchar flags")
            .line("property list uchar float texcoord")
            .line("property list ushort uint vertex_indices")
            .line("property float quality")
            .line("element trailer 1")
            .line("property list int double junk");
        f.value("uchar", 7).list("uchar", "float", {1, 2, 3}).value("double", 0.5).end_record();
        f.value("uchar", 8).list("uchar", "float", {}).value("double", 1.5).end_record();
        const double xs[] = {0, 1.5, -2.25, 0.003};
        const double ys[] = {10, -0.125, 2, 1e-3};
        const double zs[] = {-1, 0, 100.5, 3};
        const int    rs[] = {255, 0, 10, 1}, gs[] = {0, 255, 20, 2}, bs[] = {128, 0, 30, 3};
        for (int i = 0; i < 4; ++i) {
            f.value("double", 0.25).value("float", zs[i]).value("uchar", rs[i]).value("short", -5 * i);
            f.value("float", ys[i]).value("uchar", gs[i]);
            if (i % 2)
                f.list("uchar", "int", {1, 2, 3, 4, 5});
            else
                f.list("uchar", "int", {});
            f.value("float", xs[i]).value("uchar", bs[i]).end_record();
        }
        f.values("int", {0, 1}).end_record().values("int", {1, 2}).end_record();
        f.value("uchar", 1).list("uchar", "float", {0.5, 0.5, 0.25, 0.25, 0, 0});
        f.list("ushort", "uint", {0, 1, 2}).value("float", 9).end_record();
        f.value("uchar", 0).list("uchar", "float", {});
        f.list("ushort", "uint", {3, 2, 1, 0}).value("float", 9).end_record();
        f.list("int", "double", {1, 2, 3, 4, 5, 6, 7}).end_record();

        const auto s = ply(f.bytes());
        std::vector<Vec3f> pos;
        for (int i = 0; i < 4; ++i)
            pos.push_back({static_cast<float>(xs[i]), static_cast<float>(ys[i]), static_cast<float>(zs[i])});
        expect_same_positions(s.positions, pos);
        EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {3, 2, 1}, {3, 1, 0}}));
        const std::vector<Color3> colors = {{255, 0, 128}, {0, 255, 0}, {10, 20, 30}, {1, 2, 3}};
        EXPECT_EQ(s.colors, colors);
    }
}

TEST(IoPly, EveryScalarTypeForCoordinates)
{
    const char* types[] = {"char",  "uchar", "short", "ushort", "int",   "uint",   "float",   "double",
                           "int8",  "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"};
    for (const char* enc : kEncodings)
        for (const char* type : types) {
            SCOPED_TRACE(std::string(enc) + " " + type);
            const TypeInfo t = type_info(type);
            PlyFile        f(enc);
            const std::string ty(type);
            f.line("element vertex 3")
                .line("property " + ty + " x")
                .line("property " + ty + " y")
                .line("property " + ty + " z")
                .line("element face 1")
                .line("property list uchar int vertex_indices");
            // Values that every type can hold; negatives where signed,
            // fractions where floating.
            const double a = t.is_signed ? -7 : 7;
            const double b = t.is_float ? 0.375 : 100;
            f.values(ty, {a, b, 1}).end_record();
            f.values(ty, {2, 3, 4}).end_record();
            f.values(ty, {127, 0, b}).end_record();
            f.list("uchar", "int", {0, 1, 2}).end_record();
            const auto s = ply(f.bytes());
            const std::vector<Vec3f> pos = {{float(a), float(b), 1}, {2, 3, 4}, {127, 0, float(b)}};
            expect_same_positions(s.positions, pos);
            EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}}));
        }
}

TEST(IoPly, EveryListCountAndIndexType)
{
    const char* counts[]  = {"uchar", "char", "ushort", "short", "uint", "int", "uint8", "int32"};
    const char* indices[] = {"char", "uchar", "short", "ushort", "int", "uint", "int16", "uint32"};
    for (const char* enc : kEncodings)
        for (const char* ct : counts)
            for (const char* it : indices) {
                SCOPED_TRACE(std::string(enc) + " list " + ct + " " + it);
                PlyFile f(enc);
                f.line("element vertex 4")
                    .line("property float x")
                    .line("property float y")
                    .line("property float z")
                    .line("element face 2")
                    .line(std::string("property list ") + ct + " " + it + " vertex_indices");
                f.values("float", {0, 0, 0}).end_record().values("float", {1, 0, 0}).end_record();
                f.values("float", {1, 1, 0}).end_record().values("float", {0, 1, 0}).end_record();
                f.list(ct, it, {3, 2, 1, 0}).end_record();
                f.list(ct, it, {0, 1, 3}).end_record();
                const auto s = ply(f.bytes());
                EXPECT_EQ(s.faces, (std::vector<Triangle>{{3, 2, 1}, {3, 1, 0}, {0, 1, 3}}));
            }
}

TEST(IoPly, FloatColors)
{
    // [0,1] floats scale to 0..255: 0.2 * 255 = 51.
    const auto s = ply(
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
        "property float z\nproperty float red\nproperty float green\nproperty float blue\n"
        "property float alpha\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
        "0 0 0 0 0 1 1\n1 0 0 1 0.2 0 1\n0 1 0 0.6 1 0 1\n3 0 1 2\n");
    EXPECT_EQ(s.colors, (std::vector<Color3>{{0, 0, 255}, {255, 51, 0}, {153, 255, 0}}));
}

TEST(IoPly, RepeatedIndicesDropped)
{
    PlyFile f("binary_little_endian");
    f.line("element vertex 3").line("property float x").line("property float y").line("property float z");
    f.line("element face 3").line("property list uchar int vertex_indices");
    f.values("float", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    f.list("uchar", "int", {0, 0, 1}).list("uchar", "int", {0, 1, 1, 2}).list("uchar", "int", {2, 1, 0});
    const auto s = ply(f.bytes());
    EXPECT_EQ(s.faces, (std::vector<Triangle>{{0, 1, 2}, {2, 1, 0}}));
    EXPECT_EQ(s.dropped_faces, 2u);
}

// ---- bad input ------------------------------------------------------------

// A valid 4-vertex, 2-face file up to (not including) the bad part.
PlyFile quad_header(const char* enc, int nv = 4, int nf = 2)
{
    PlyFile f(enc);
    f.line("element vertex " + std::to_string(nv))
        .line("property float x")
        .line("property float y")
        .line("property float z")
        .line("element face " + std::to_string(nf))
        .line("property list uchar int vertex_indices");
    return f;
}

enum class Refusal
{
    Parse,        // a ParseError: the syntax is wrong
    InvalidInput  // an InvalidInputError: well-formed, bad data
};

//! Reading `f` is refused as `kind` says, naming `needle`: at `line` of an
//! ASCII file, at byte `at` of a binary one.
void expect_refused_at(const PlyFile& f, Refusal kind, std::uint64_t line, std::uint64_t at,
                       const std::string& needle)
{
    const auto read  = [&] { ply(f.bytes()); };
    const bool parse = kind == Refusal::Parse;
    if (f.ascii())
        parse ? expect_parse_error_line(read, "t.ply", line, needle)
              : expect_invalid_line(read, "t.ply", line, needle);
    else
        parse ? expect_parse_error_byte(read, "t.ply", at, needle)
              : expect_invalid_byte(read, "t.ply", at, needle);
}

void quad_vertices(PlyFile& f)
{
    f.values("float", {0, 0, 0}).end_record().values("float", {1, 0, 0}).end_record();
    f.values("float", {1, 1, 0}).end_record().values("float", {0, 1, 0}).end_record();
}

TEST(IoPly, IndexOutOfRange)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile f = quad_header(enc);
        quad_vertices(f);
        f.list("uchar", "int", {0, 1, 2}).end_record();
        const std::uint64_t line = f.line_no();
        f.value("uchar", 3).value("int", 0).value("int", 2);
        const std::uint64_t at = f.offset();  // the bad index itself
        f.value("int", 4).end_record();
        expect_refused_at(f, Refusal::InvalidInput, line, at, "out of range");
    }
}

TEST(IoPly, NegativeIndex)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile f = quad_header(enc, 4, 1);
        quad_vertices(f);
        const std::uint64_t line = f.line_no();
        f.value("uchar", 3).value("int", 0);
        const std::uint64_t at = f.offset();
        f.value("int", -1).value("int", 2).end_record();
        expect_refused_at(f, Refusal::InvalidInput, line, at, "-1");
    }
}

TEST(IoPly, NanAndInfCoordinates)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile f = quad_header(enc, 4, 1);
        f.values("float", {0, 0, 0}).end_record().values("float", {1, 0, 0}).end_record();
        const std::uint64_t line = f.line_no();
        const std::uint64_t at   = f.offset();  // start of the vertex record
        PlyFile g = f;  // NaN version and inf version
        f.value("float", 1).value("float", std::nan("")).value("float", 0).end_record();
        g.value("float", 1).value("float", 2).value("float", -HUGE_VAL).end_record();
        for (PlyFile* h : {&f, &g}) {
            h->values("float", {0, 1, 0}).end_record();
            h->list("uchar", "int", {0, 1, 2}).end_record();
            expect_refused_at(*h, Refusal::InvalidInput, line, at, "NaN");
        }
    }
}

TEST(IoPly, TruncatedBinaryFaceList)
{
    for (const char* enc : {"binary_little_endian", "binary_big_endian"}) {
        SCOPED_TRACE(enc);
        PlyFile f = quad_header(enc);
        quad_vertices(f);
        f.list("uchar", "int", {0, 1, 2});
        f.value("uchar", 3);
        const std::uint64_t items = f.offset();  // where the last list's items start
        f.values("int", {0, 2, 3});
        const std::string all = f.bytes();
        // Cut inside the items: the list no longer fits.
        expect_parse_error_byte([&] { ply(all.substr(0, all.size() - 5)); }, "t.ply", items, "face 1");
        // Cut right after the count byte.
        expect_parse_error_byte([&] { ply(all.substr(0, items)); }, "t.ply", items, "face 1");
    }
}

TEST(IoPly, TruncatedAscii)
{
    PlyFile f = quad_header("ascii");
    quad_vertices(f);
    f.list("uchar", "int", {0, 1, 2}).end_record();
    const std::uint64_t line = f.line_no();
    f.value("uchar", 3).value("int", 0).value("int", 2).value("int", 3);
    const std::string all = f.bytes();
    // "3 0 2 " is left: the third index is missing.
    expect_parse_error_line([&] { ply(all.substr(0, all.size() - 2)); }, "t.ply", line, "end of file");
}

TEST(IoPly, HugeCountsRejectedBeforeAllocation)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile g(enc);
        g.line("element vertex 4000000000")
            .line("property float x")
            .line("property float y")
            .line("property float z")
            .line("element face 1")
            .line("property list uchar int vertex_indices");
        quad_vertices(g);
        g.list("uchar", "int", {0, 1, 2}).end_record();
        const std::uint64_t body = g.bytes().find("end_header\n") + 11;  // first body byte
        expect_refused_at(g, Refusal::Parse, 10, body, "4000000000");
    }
}

TEST(IoPly, HugeListLength)
{
    for (const char* enc : {"binary_little_endian", "binary_big_endian"}) {
        SCOPED_TRACE(enc);
        PlyFile f(enc);
        f.line("element vertex 3").line("property float x").line("property float y").line("property float z");
        f.line("element face 1").line("property list uint int vertex_indices");
        f.values("float", {0, 0, 0, 1, 0, 0, 0, 1, 0});
        f.value("uint", 4294967295.0);
        const std::uint64_t items = f.offset();
        f.values("int", {0, 1, 2});
        expect_parse_error_byte([&] { ply(f.bytes()); }, "t.ply", items, "ends inside face 0");
    }
}

TEST(IoPly, FaceWithTooFewVertices)
{
    for (const char* enc : kEncodings) {
        SCOPED_TRACE(enc);
        PlyFile f = quad_header(enc);
        quad_vertices(f);
        f.list("uchar", "int", {0, 1, 2}).end_record();
        const std::uint64_t line = f.line_no(), at = f.offset();
        f.list("uchar", "int", {0, 1}).end_record();
        expect_refused_at(f, Refusal::Parse, line, at, "at least 3");
    }
}

TEST(IoPly, BadHeaders)
{
    const std::string v3 = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n";
    const std::string f1 = "element face 1\nproperty list uchar int vertex_indices\n";
    const std::string body = "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    expect_parse_error_line([&] { ply("plyx\nformat ascii 1.0\n" + v3 + f1 + body); }, "t.ply", 1, "ply");
    expect_parse_error_line([&] { ply("ply\nformat utf8 1.0\n" + v3 + f1 + body); }, "t.ply", 2, "utf8");
    // Reported on the end_header line, where the header is complete.
    expect_parse_error_line([&] { ply("ply\n" + v3 + f1 + body); }, "t.ply", 8, "format");
    expect_parse_error_line([&] { ply("ply\nformat ascii 1.0\n" + v3 + f1); }, "t.ply", 8, "end_header");
    expect_parse_error_line(
        [&] { ply("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float128 y\n"); },
        "t.ply", 5, "float128");
    expect_parse_error_line(
        [&] { ply("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n" + f1 + body); },
        "t.ply", 3, "x, y or z");
    expect_parse_error_line(
        [&] { ply("ply\nformat ascii 1.0\n" + v3 + "element face 1\nproperty list float int vertex_indices\n" + body); },
        "t.ply", 8, "integer");
    expect_parse_error_line(
        [&] { ply("ply\nformat ascii 1.0\n" + v3 + "element face 1\nproperty list uchar float vertex_indices\n" + body); },
        "t.ply", 7, "integer");
    expect_parse_error_line(
        [&] { ply("ply\nformat ascii 1.0\n" + v3 + "element face 1\nproperty int flags\n" + body); },
        "t.ply", 7, "vertex_indices");
    expect_parse_error_line([&] { ply("ply\nformat ascii 1.0\nproperty float x\n" + body); }, "t.ply", 3,
                            "before any element");
    expect_parse_error_line([&] { ply("ply\nformat ascii 1.0\nelement vertex -3\n" + body); }, "t.ply", 3,
                            "count");
}

TEST(IoPly, AsciiGarbageValue)
{
    expect_parse_error_line(
        [] {
            ply("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 zero 0\n0 1 0\n3 0 1 2\n");
        },
        "t.ply", 11, "zero");
    expect_parse_error_line(
        [] {
            ply("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1.5 2\n");
        },
        "t.ply", 13, "integer");
}

TEST(IoPly, EmptyAndFaceless)
{
    expect_parse_error_line([] { ply(""); }, "t.ply", 1, "ply");
    expect_error<InvalidInputError>(
        [] {
            ply("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n");
        },
        {"t.ply", "no faces"});
    expect_error<InvalidInputError>(
        [] {
            ply("ply\nformat binary_little_endian 1.0\nelement nothing 999999999999\nelement vertex 0\n"
                "property float x\nproperty float y\nproperty float z\nelement face 0\n"
                "property list uchar int vertex_indices\nend_header\n");
        },
        {"t.ply", "no faces"});
}

TEST(IoPly, ReadFromFile)
{
    PlyFile f = quad_header("binary_big_endian");
    quad_vertices(f);
    f.list("uchar", "int", {0, 1, 2}).list("uchar", "int", {0, 2, 3});
    const std::string path = write_tmp("io_ply_be.PLY", f.bytes());
    EXPECT_EQ(io::read(path).faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}}));
}

}  // namespace
}  // namespace rxmesh::test
