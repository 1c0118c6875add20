// The threaded OBJ and OFF readers: files cut into pieces on threads must
// read exactly as the serial parser reads them (soup, or error type,
// message and line), whatever the cuts fall on. Every other reader test
// checks this on its inputs too (test_io_util.h's parse()); here are inputs
// made to put what the pieces cannot decide alone at the cuts.
#include <functional>
#include <random>
#include <sstream>

#include "rxmesh/io/generate.h"
#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

const unsigned kPieces[] = {2, 3, 4, 7, 16, 61};

void expect_all_cuts_match(const std::string& text, Format format, const std::string& name)
{
    for (unsigned pieces : kPieces) expect_pieces_match_serial(text, format, name, pieces);
}

//! A mesh of `n` x `n` quads as OBJ text, with what `line` adds per vertex
//! (colors, comments) and faces given as quads.
std::string grid_obj(int n, const std::function<std::string(int)>& vertex_extra)
{
    std::ostringstream s;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            const int v = j * (n + 1) + i;
            s << "v " << i * 0.125f << ' ' << j * 0.375f << ' ' << (i ^ j) * 0.01f
              << vertex_extra(v) << '\n';
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int a = j * (n + 1) + i + 1;
            s << "f " << a << ' ' << a + 1 << ' ' << a + n + 2 << ' ' << a + n + 1 << '\n';
        }
    return s.str();
}

TEST(IoParallel, ObjGridMatchesSerial)
{
    expect_all_cuts_match(grid_obj(40, [](int) { return ""; }), Format::Obj, "grid.obj");
}

TEST(IoParallel, ObjColorsOnlyCountWhenEveryVertexHasThem)
{
    const auto all  = grid_obj(30, [](int v) { return " 0.5 0.25 " + std::to_string(v % 2); });
    const auto most = grid_obj(30, [](int v) { return v == 700 ? "" : " 0.5 0.25 1"; });
    const auto byte = grid_obj(30, [](int v) { return " 200 " + std::to_string(v % 256) + " 1"; });
    expect_all_cuts_match(all, Format::Obj, "all.obj");
    expect_all_cuts_match(most, Format::Obj, "most.obj");
    expect_all_cuts_match(byte, Format::Obj, "bytes.obj");
    EXPECT_FALSE(parse(all, Format::Obj, "all.obj").colors.empty());
    EXPECT_TRUE(parse(most, Format::Obj, "most.obj").colors.empty());
}

TEST(IoParallel, ObjContinuationsCommentsAndCrlfAtEveryLine)
{
    // Every line is continued, commented or CRLF-terminated in turn, so
    // some cut always lands next to each.
    std::string text = grid_obj(25, [](int v) {
        switch (v % 4) {
            case 0: return std::string(" \\\n");  // continued onto an empty line
            case 1: return std::string(" # comment ending in a backslash \\");
            case 2: return std::string("\r");
            default: return std::string();
        }
    });
    expect_all_cuts_match(text, Format::Obj, "continued.obj");
    // A face continued over three lines.
    text += "f 1 \\\n 2 \\\r\n 3\n";
    expect_all_cuts_match(text, Format::Obj, "continued.obj");
}

TEST(IoParallel, ObjRelativeAndForwardIndices)
{
    std::string text = grid_obj(30, [](int) { return ""; });
    text += "v 9 9 9\nv 9 8 9\nv 8 9 9\nf -3 -2 -1\n";  // relative: serial only
    expect_all_cuts_match(text, Format::Obj, "relative.obj");
    EXPECT_EQ(parse(text, Format::Obj, "relative.obj").faces.back(),
              (Triangle{961, 962, 963}));

    // Faces before the vertices they use are fine once the vertices come.
    const std::string forward = "f 1 2 3\nf 2 3 4\n" + std::string(3000, '\n') +
                                "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n";
    expect_all_cuts_match(forward, Format::Obj, "forward.obj");
    expect_all_cuts_match(forward + "f 1 2 9\n", Format::Obj, "forward.obj");  // out of range
}

TEST(IoParallel, ObjErrorsKeepTheSerialLine)
{
    const std::string good = grid_obj(30, [](int) { return ""; });
    std::mt19937      rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        // Damage one line somewhere: the first error is the serial one.
        std::string text = good;
        std::size_t at   = std::uniform_int_distribution<std::size_t>(0, text.size() - 2)(rng);
        at               = text.find('\n', at) + 1;
        const char* damage[] = {"v 1 2 x\n", "f 1 2\n", "f 0 1 2\n", "q\n", "v nan 0 0\n",
                                "f 1 2 99999\n"};
        text.insert(at, damage[trial % 6]);
        expect_all_cuts_match(text, Format::Obj, "damaged.obj");
    }
}

TEST(IoParallel, ObjDroppedAndPolygonFaces)
{
    std::string text = grid_obj(20, [](int) { return ""; });
    for (int k = 0; k < 200; ++k)
        text += "f " + std::to_string(k + 1) + ' ' + std::to_string(k + 1) + ' ' +
                std::to_string(k + 2) + "\nf 1 2 3 4 5 6 7\n";
    expect_all_cuts_match(text, Format::Obj, "dropped.obj");
    EXPECT_EQ(parse(text, Format::Obj, "dropped.obj").dropped_faces, 200u);
}

//! The generated mesh as OFF text, with blank and comment lines between
//! records and colors after some of them.
std::string off_text(const TriangleSoup& m, bool noise)
{
    std::ostringstream s;
    s << "OFF\n# made by the test\n" << m.positions.size() << ' ' << m.faces.size() << " 0\n";
    std::size_t k = 0;
    for (const Vec3f& p : m.positions) {
        s << p[0] << ' ' << p[1] << ' ' << p[2] << (noise && k % 3 == 0 ? " 0.1 0.2 0.3" : "")
          << '\n';
        if (noise && ++k % 5 == 0) s << (k % 2 ? "\n   \t\n" : "# a comment line\n");
    }
    for (const Triangle& t : m.faces) {
        s << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << (noise && ++k % 4 == 0 ? " 255 0 0" : "")
          << '\n';
        if (noise && k % 7 == 0) s << "   # comment\n";
    }
    return s.str();
}

TEST(IoParallel, OffMatchesSerial)
{
    const TriangleSoup sphere = generate::icosphere(3);
    expect_all_cuts_match(off_text(sphere, false), Format::Off, "sphere.off");
    expect_all_cuts_match(off_text(sphere, true), Format::Off, "noisy.off");
    // Trailing content after the last face is not read, cut or not.
    expect_all_cuts_match(off_text(sphere, true) + "2 0 1\nwhatever follows\n", Format::Off,
                          "trailing.off");
}

TEST(IoParallel, OffTruncatedAndDamaged)
{
    const std::string text = off_text(generate::icosphere(3), true);
    expect_all_cuts_match(text.substr(0, text.size() / 2), Format::Off, "truncated.off");
    expect_all_cuts_match(text.substr(0, text.size() - 30), Format::Off, "truncated.off");
    std::mt19937 rng(11);
    for (int trial = 0; trial < 40; ++trial) {
        std::string d  = text;
        std::size_t at = std::uniform_int_distribution<std::size_t>(40, d.size() - 2)(rng);
        at             = d.find('\n', at) + 1;
        const char* damage[] = {"1 2\n", "3 0 1 99999\n", "x y z\n", "3 0 0 1\n", "2 0 1\n"};
        d.insert(at, damage[trial % 5]);
        expect_all_cuts_match(d, Format::Off, "damaged.off");
    }
}

TEST(IoParallel, LargeFileThroughReadUsesTheDefaults)
{
    // Above the default piece size, io::read (mapped file, default options)
    // agrees with the serial parse of the same bytes.
    const std::string text = grid_obj(300, [](int) { return ""; });
    ASSERT_GT(text.size(), std::size_t(2) << 20);
    const std::string path = write_tmp("io_parallel_large.obj", text);
    const TriangleSoup read   = io::read(path);
    const TriangleSoup serial = io::read_memory(text, Format::Obj, path, io::ReadOptions{1});
    EXPECT_EQ(read.positions, serial.positions);
    EXPECT_EQ(read.faces, serial.faces);
    EXPECT_EQ(read.faces.size(), 2u * 300 * 300);
}

}  // namespace
}  // namespace rxmesh::test

namespace rxmesh::test {
namespace {

//! A binary PLY as write_ply writes it: the layout the fast path takes.
std::string binary_ply(const TriangleSoup& m)
{
    const std::string path = write_tmp("io_parallel_fast.ply", "");
    io::write_ply(path, m);
    return read_bytes(path);
}

TEST(IoParallel, BinaryPlyFastPathMatchesTheGeneralReader)
{
    const TriangleSoup sphere = generate::icosphere(4);
    const std::string  ply    = binary_ply(sphere);
    expect_all_cuts_match(ply, Format::Ply, "sphere.ply");
    // Read back exactly (write_ply stores floats and indices as they are).
    const TriangleSoup back = parse(ply, Format::Ply, "sphere.ply");
    EXPECT_EQ(back.positions, sphere.positions);
    EXPECT_EQ(back.faces, sphere.faces);
}

TEST(IoParallel, BinaryPlyIrregularRecordsGoToTheGeneralReader)
{
    const TriangleSoup sphere = generate::icosphere(3);
    const std::string  ply    = binary_ply(sphere);
    const std::size_t  body   = ply.find("end_header\n") + 11;
    const std::size_t  faces  = body + 12 * sphere.positions.size();
    const auto         damaged = [&](std::size_t at, std::string_view bytes) {
        std::string d = ply;
        d.replace(at, bytes.size(), bytes);
        return d;
    };
    const float nan = std::nanf("");
    std::string nan_bytes(4, '\0');
    std::memcpy(nan_bytes.data(), &nan, 4);
    const std::string cases[] = {
        damaged(faces + 13 * 100 + 1, std::string("\xff\xff\xff\x7f", 4)),  // index out of range
        damaged(faces + 13 * 7, std::string("\x04", 1)),                     // a list of 4
        damaged(faces + 13 * 9 + 5, ply.substr(faces + 13 * 9 + 1, 4)),      // repeated index
        damaged(body + 12 * 33 + 4, nan_bytes),                              // NaN coordinate
        ply.substr(0, ply.size() - 20),                                      // truncated
        ply + "trailing bytes are not read",
    };
    for (const std::string& d : cases) {
        expect_all_cuts_match(d, Format::Ply, "damaged.ply");
        // The fast path's decisions agree with the general reader's, which
        // the other PLY tests check value by value.
        const ReadOutcome serial = read_outcome(d, Format::Ply, "damaged.ply", io::ReadOptions{1});
        const ReadOutcome cut    = read_outcome(d, Format::Ply, "damaged.ply", io::ReadOptions{5, 1});
        EXPECT_EQ(serial.error, cut.error);
    }
    EXPECT_EQ(parse(cases[2], Format::Ply, "damaged.ply").dropped_faces, 1u);
    expect_error<InvalidInputError>([&] { parse(cases[0], Format::Ply, "damaged.ply"); },
                                    {"damaged.ply", "out of range"});
    expect_error<InvalidInputError>([&] { parse(cases[3], Format::Ply, "damaged.ply"); },
                                    {"damaged.ply", "NaN"});
}

}  // namespace
}  // namespace rxmesh::test

namespace rxmesh::test {
namespace {

//! An ascii PLY of the mesh with per-vertex colors and an extra element
//! after the faces; `layout` changes where records break lines.
std::string ascii_ply(const TriangleSoup& m, int layout)
{
    std::ostringstream s;
    s << "ply\nformat ascii 1.0\ncomment made by the test\nelement vertex " << m.positions.size()
      << "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
         "property uchar green\nproperty uchar blue\nelement face "
      << m.faces.size() << "\nproperty list uchar int vertex_indices\nelement note 2\n"
      << "property int id\nend_header\n";
    std::size_t k = 0;
    for (const Vec3f& p : m.positions) {
        s << p[0] << ' ' << p[1] << ' ' << p[2] << ' ' << (k * 7) % 256 << " 3 200";
        s << (layout == 1 && k == m.positions.size() / 2 ? " " : "\n");  // two on one line
        if (layout == 0 && k % 9 == 0) s << "   \t\n";                  // blank lines between
        ++k;
    }
    k = 0;
    for (const Triangle& t : m.faces) {
        s << "3 " << t[0] << (layout == 2 && k == 100 ? "\n" : " ") << t[1] << ' ' << t[2] << '\n';
        ++k;
    }
    s << "7\n8\n";
    return s.str();
}

TEST(IoParallel, AsciiPlyMatchesSerial)
{
    const TriangleSoup sphere = generate::icosphere(3);
    expect_all_cuts_match(ascii_ply(sphere, 0), Format::Ply, "ascii.ply");
    const TriangleSoup back = parse(ascii_ply(sphere, 0), Format::Ply, "ascii.ply");
    EXPECT_EQ(back.faces, sphere.faces);
    EXPECT_EQ(back.colors.size(), sphere.positions.size());
    // records sharing or spanning lines are the serial reader's
    expect_all_cuts_match(ascii_ply(sphere, 1), Format::Ply, "shared_line.ply");
    expect_all_cuts_match(ascii_ply(sphere, 2), Format::Ply, "spanning.ply");
    EXPECT_EQ(parse(ascii_ply(sphere, 2), Format::Ply, "spanning.ply").faces, sphere.faces);
}

TEST(IoParallel, AsciiPlyDamaged)
{
    const std::string text = ascii_ply(generate::icosphere(3), 0);
    expect_all_cuts_match(text.substr(0, text.size() / 2), Format::Ply, "truncated.ply");
    expect_all_cuts_match(text.substr(0, text.size() - 5), Format::Ply, "truncated.ply");
    std::mt19937 rng(13);
    for (int trial = 0; trial < 40; ++trial) {
        std::string d  = text;
        std::size_t at = std::uniform_int_distribution<std::size_t>(d.find("end_header") + 11,
                                                                    d.size() - 2)(rng);
        at             = d.find('\n', at) + 1;
        const char* damage[] = {"1 2\n", "3 0 1 99999\n", "x y z 1 2 3\n", "3 0 0 1\n",
                                "2 0 1\n"};
        d.insert(at, damage[trial % 5]);
        expect_all_cuts_match(d, Format::Ply, "damaged.ply");
    }
}

}  // namespace
}  // namespace rxmesh::test
