// Real files from assimp's test models and CGAL's data: every one either
// reads to a valid soup or throws rxmesh::Error; known-good ones must read.
#include <algorithm>
#include <cstdio>
#include <map>

#include "test_io_util.h"

namespace rxmesh::test {
namespace {

struct Outcome
{
    std::map<std::string, TriangleSoup> read;    // by path
    std::map<std::string, std::string>  failed;  // path -> message
};

bool ends_with_any(const std::string& s, const std::vector<std::string>& tails)
{
    for (const std::string& tail : tails)
        if (s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0)
            return true;
    return false;
}

Outcome read_all(const std::vector<std::string>& files)
{
    Outcome out;
    for (const std::string& f : files) {
        // The threaded text readers agree with the serial one on real files.
        if (ends_with_any(f, {".obj", ".OBJ", ".off", ".OFF"}))
            for (unsigned pieces : {2u, 5u, 16u})
                expect_pieces_match_serial(read_bytes(f), io::format_from_path(f), f, pieces);
        try {
            TriangleSoup s = io::read(f);
            EXPECT_TRUE(soup_is_valid(s)) << f;
            out.read.emplace(f, std::move(s));
        } catch (const Error& e) {
            out.failed.emplace(f, e.what());
        } catch (const std::exception& e) {
            ADD_FAILURE() << f << ": non-rxmesh exception: " << e.what();
        }
    }
    return out;
}

bool ends_with(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

const TriangleSoup* find(const Outcome& o, const std::string& tail)
{
    for (const auto& [path, soup] : o.read)
        if (ends_with(path, tail))
            return &soup;
    return nullptr;
}

void report(const char* what, const Outcome& o)
{
    std::printf("[ %s ] %zu read, %zu failed\n", what, o.read.size(), o.failed.size());
    for (const auto& [path, msg] : o.failed)
        std::printf("    failed: %s\n", msg.c_str());
}

TEST(IoRealMeshes, AssimpModels)
{
    const auto files = list_files(assimp_models_dir(), mesh_extensions());
    if (files.empty())
        GTEST_SKIP() << "no assimp test models at '" << assimp_models_dir()
                     << "' (install assimp-testmodels)";
    const Outcome o = read_all(files);
    report("assimp", o);

    // These are plain, valid meshes and must read.
    for (const char* tail : {"OBJ/WusonOBJ.obj", "OFF/Wuson.off", "PLY/Wuson.ply", "STL/Wuson.stl",
                             "OBJ/spider.obj", "STL/Spider_ascii.stl", "STL/Spider_binary.stl",
                             "OBJ/box.obj", "OBJ/box_without_lineending.obj", "OFF/Cube.off",
                             "PLY/cube.ply", "PLY/cube_binary.ply", "STL/triangle_with_two_solids.stl",
                             "OBJ/cube_with_vertexcolors.obj"})
        EXPECT_NE(find(o, tail), nullptr) << tail << " did not read";

    // The four Wuson files are one model: same triangle count in each.
    const TriangleSoup* wuson[] = {find(o, "OBJ/WusonOBJ.obj"), find(o, "OFF/Wuson.off"),
                                   find(o, "PLY/Wuson.ply"), find(o, "STL/Wuson.stl")};
    if (wuson[0] && wuson[1] && wuson[2] && wuson[3]) {
        for (int i = 1; i < 4; ++i)
            EXPECT_EQ(wuson[i]->faces.size(), wuson[0]->faces.size()) << "Wuson format " << i;
    }
    // Spider ascii and binary STL: same triangles, up to text precision.
    const TriangleSoup* sa = find(o, "STL/Spider_ascii.stl");
    const TriangleSoup* sb = find(o, "STL/Spider_binary.stl");
    if (sa && sb) {
        ASSERT_EQ(sa->positions.size(), sb->positions.size());
        for (std::size_t i = 0; i < sa->positions.size(); ++i)
            for (int k = 0; k < 3; ++k)
                ASSERT_NEAR(sa->positions[i][k], sb->positions[i][k],
                            1e-4f * (1.f + std::fabs(sb->positions[i][k])))
                    << "vertex " << i;
    }
    // UTF-16 and point clouds are typed errors, not empty meshes.
    for (const char* tail : {"OBJ/box_UTF16BE.obj", "OBJ/point_cloud.obj", "PLY/points.ply"})
        for (const auto& [path, msg] : o.failed)
            if (ends_with(path, tail)) {
                EXPECT_NE(msg.find(path), std::string::npos) << msg;
            }
    EXPECT_EQ(find(o, "OBJ/box_UTF16BE.obj"), nullptr);
    EXPECT_EQ(find(o, "OBJ/point_cloud.obj"), nullptr);

    // invalid/: every file fails with rxmesh::Error or reads cleanly (both
    // checked by read_all); the empty ones and the OOM bait must fail.
    for (const char* tail : {"invalid/empty.obj", "invalid/empty.off", "invalid/empty.ply",
                             "invalid/OutOfMemory.off", "invalid/malformed2.obj"})
        if (std::any_of(files.begin(), files.end(), [&](const std::string& f) { return ends_with(f, tail); })) {
            EXPECT_EQ(find(o, tail), nullptr) << tail << " should not read";
        }
}

TEST(IoRealMeshes, CgalData)
{
    const auto files = list_files(cgal_data_dir(), mesh_extensions());
    if (files.empty())
        GTEST_SKIP() << "no CGAL data at '" << cgal_data_dir() << "' (install libcgal-demo)";
    const Outcome o = read_all(files);
    report("cgal", o);

    std::size_t off_total = 0, off_read = 0;
    for (const std::string& f : files)
        if (ends_with(f, ".off")) {
            ++off_total;
            off_read += o.read.count(f);
        }
    std::printf("[ cgal ] .off: %zu of %zu read\n", off_read, off_total);
    ASSERT_GT(off_total, 0u);
    EXPECT_GE(off_read * 10, off_total * 9) << "fewer than 90% of CGAL's .off files read";
    for (const char* tail : {"meshes/sphere.ply", "meshes/pig.stl", "meshes/colored_tetra.ply"})
        if (std::any_of(files.begin(), files.end(), [&](const std::string& f) { return ends_with(f, tail); })) {
            EXPECT_NE(find(o, tail), nullptr) << tail << " did not read";
        }
}

}  // namespace
}  // namespace rxmesh::test
