// Mutation test: thousands of randomly damaged copies of small valid files
// (fixed seed). Readers may only throw rxmesh::Error; whatever they accept
// must satisfy the soup contract (indices in range, finite positions).
#include <chrono>
#include <cstring>
#include <random>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

using io::Format;

std::string le32(std::uint32_t u)
{
    std::string s;
    for (int k = 0; k < 4; ++k)
        s += static_cast<char>((u >> (8 * k)) & 0xFF);
    return s;
}

std::string f32le(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return le32(u);
}

std::string be32(std::uint32_t u)
{
    std::string s;
    for (int k = 3; k >= 0; --k)
        s += static_cast<char>((u >> (8 * k)) & 0xFF);
    return s;
}

struct Seed
{
    const char* name;
    Format      format;
    std::string bytes;
};

std::vector<Seed> seeds()
{
    std::vector<Seed> out;
    out.push_back({"m.obj", Format::Obj,
                   "# seed\nmtllib a.mtl\nv 0 0 0 1 0 0\nv 1.5 0 0 0 1 0\nv 1 1e1 0 0 0 1\nv 0 1 -2.5 1 1 1\n"
                   "vt 0 0\nvn 0 0 1\ng grp\nf 1/1/1 2/1/1 3/1/1\nf -4 -2 -1\nf 1//1 3//1 4//1 2//1\n"
                   "l 1 2\nf 4 3 \\\n 2\n"});
    out.push_back({"m.off", Format::Off,
                   "OFF\n# comment\n5 3 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 1\n4 0 1 2 3\n3 0 1 4\n3 2 3 4 1 0 0\n"});
    out.push_back({"c.off", Format::Off,
                   "COFF 4 2 0\n0 0 0 255 0 0 255\n1 0 0 0 255 0 255\n1 1 0 0 0 255 255\n0 1 0 9 9 9 9\n"
                   "3 0 1 2\n3 0 2 3\n"});
    const std::string ply_head =
        "element vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
        "property uchar green\nproperty uchar blue\nelement edge 1\nproperty int a\nproperty int b\n"
        "element face 2\nproperty list uchar int vertex_indices\nend_header\n";
    out.push_back({"a.ply", Format::Ply,
                   "ply\nformat ascii 1.0\ncomment c\n" + ply_head +
                       "0 0 0 1 2 3\n1 0 0 4 5 6\n1 1 0 7 8 9\n0 1 0 1 1 1\n0 1\n3 0 1 2\n4 0 1 2 3\n"});
    std::string le = "ply\nformat binary_little_endian 1.0\n" + ply_head;
    std::string be = "ply\nformat binary_big_endian 1.0\n" + ply_head;
    const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (const auto& p : pos) {
        for (float c : p) {
            le += f32le(c);
            std::uint32_t u;
            std::memcpy(&u, &c, 4);
            be += be32(u);
        }
        le += "abc";
        be += "abc";
    }
    le += le32(0) + le32(1);
    be += be32(0) + be32(1);
    le += std::string(1, 3) + le32(0) + le32(1) + le32(2) + std::string(1, 4) + le32(0) + le32(1) + le32(2) + le32(3);
    be += std::string(1, 3) + be32(0) + be32(1) + be32(2) + std::string(1, 4) + be32(0) + be32(1) + be32(2) + be32(3);
    out.push_back({"le.ply", Format::Ply, le});
    out.push_back({"be.ply", Format::Ply, be});
    out.push_back({"a.stl", Format::Stl,
                   "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
                   "endfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\n"
                   "endloop\nendfacet\nendsolid s\n"});
    std::string bin = "solid binary header";
    bin.resize(80, ' ');
    bin += le32(2);
    for (int t = 0; t < 2; ++t) {
        bin += f32le(0) + f32le(0) + f32le(1);
        for (int c = 0; c < 3; ++c)
            bin += f32le(pos[t + c][0]) + f32le(pos[t + c][1]) + f32le(pos[t + c][2]);
        bin += std::string(2, '\0');
    }
    out.push_back({"b.stl", Format::Stl, bin});
    return out;
}

std::string mutate(const std::string& in, std::mt19937& rng)
{
    static const char* const kTokens[] = {"99999999999", "4294967295", "-1", "0", "nan", "inf", "1e39",
                                          "\n", "\r\n", " ", "#", "/", "\\\n", "-", ".", "e",
                                          "end_header\n", "endsolid", "\xFF\xFE", ""};
    std::string s     = in;
    const int   edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        const std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
        switch (rng() % 7) {
            case 0:  // random byte
                if (!s.empty())
                    s[pos % s.size()] = static_cast<char>(rng());
                break;
            case 1:  // truncate
                s.resize(pos);
                break;
            case 2:  // insert random bytes
                s.insert(pos, std::string(1 + rng() % 8, static_cast<char>(rng())));
                break;
            case 3: {  // insert a nasty token ("" stands for a NUL byte)
                const char* tok = kTokens[rng() % (sizeof kTokens / sizeof kTokens[0])];
                s.insert(pos, *tok ? std::string(tok) : std::string(1, '\0'));
                break;
            }
            case 4:  // delete a range
                if (pos < s.size())
                    s.erase(pos, 1 + rng() % 16);
                break;
            case 5:  // duplicate a range
                if (pos < s.size())
                    s.insert(pos, s.substr(pos, 1 + rng() % 32));
                break;
            default:  // bump a digit
                if (!s.empty()) {
                    char& c = s[pos % s.size()];
                    if (c >= '0' && c <= '9')
                        c = static_cast<char>('0' + rng() % 10);
                    else
                        c = static_cast<char>(rng() % 2 ? '9' : ' ');
                }
                break;
        }
    }
    return s;
}

TEST(IoMutation, DamagedFilesOnlyThrowRxmeshErrors)
{
    const auto        start      = std::chrono::steady_clock::now();
    std::mt19937      rng(20240601);
    std::size_t       accepted   = 0, rejected = 0;
    constexpr int     kPerSeed   = 5000;
    for (const Seed& seed : seeds()) {
        // The seeds themselves are valid.
        ASSERT_NO_THROW({
            const auto s = io::read_memory(seed.bytes, seed.format, seed.name);
            ASSERT_TRUE(soup_is_valid(s)) << seed.name;
        }) << seed.name;
        for (int i = 0; i < kPerSeed; ++i) {
            const std::string bytes = mutate(seed.bytes, rng);
            // Damage lands at piece ends too: the threaded readers must
            // still agree with the serial one.
            if (i % 10 == 0) expect_pieces_match_serial(bytes, seed.format, seed.name, 2 + i % 7);
            try {
                const TriangleSoup s = io::read_memory(bytes, seed.format, seed.name);
                ASSERT_TRUE(soup_is_valid(s)) << seed.name << " mutation " << i;
                ++accepted;
            } catch (const Error& e) {
                // Typed, and it names the file.
                ASSERT_NE(std::string(e.what()).find(seed.name), std::string::npos) << e.what();
                ++rejected;
            } catch (const std::exception& e) {
                FAIL() << seed.name << " mutation " << i << ": non-rxmesh exception " << e.what();
            }
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ mutation ] %zu accepted, %zu rejected in %.2f s\n", accepted, rejected, secs);
    EXPECT_GT(rejected, 0u);
    EXPECT_GT(accepted, 0u);
}

}  // namespace
}  // namespace rxmesh::test
