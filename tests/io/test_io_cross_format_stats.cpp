// The same model written as OBJ, OFF, PLY and STL reads back to identical
// welded statistics, equal to those of the model itself.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/topology.h"
#include "test_data.h"

namespace {

using rxmesh::TriangleSoup;

std::string g9(float f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
    return buf;
}

void write_text(const std::string& path, const std::string& text)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr) << path;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
}

std::string off_text(const TriangleSoup& m)
{
    std::string s = "OFF\n" + std::to_string(m.positions.size()) + " " +
                    std::to_string(m.faces.size()) + " 0\n";
    for (const auto& p : m.positions)
        s += g9(p[0]) + " " + g9(p[1]) + " " + g9(p[2]) + "\n";
    for (const auto& t : m.faces)
        s += "3 " + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " +
             std::to_string(t[2]) + "\n";
    return s;
}

std::string stl_text(const TriangleSoup& m)
{
    std::string s = "solid model\n";
    for (const auto& t : m.faces) {
        s += "facet normal 0 0 0\nouter loop\n";
        for (auto v : t)
            s += "vertex " + g9(m.positions[v][0]) + " " + g9(m.positions[v][1]) + " " +
                 g9(m.positions[v][2]) + "\n";
        s += "endloop\nendfacet\n";
    }
    return s + "endsolid model\n";
}

rxmesh::MeshStats welded_stats(const TriangleSoup& soup)
{
    const auto r    = rxmesh::reference::reindex(soup.positions, soup.faces, true);
    const auto topo = rxmesh::reference::build_topology(
        static_cast<std::uint32_t>(r.positions.size()), r.faces);
    return rxmesh::reference::compute_stats(topo, r.faces);
}

}  // namespace

TEST(IoCrossFormat, WeldedStatisticsAgree)
{
    namespace g = rxmesh::generate;
    // a closed torus, an open grid and a bowtie as separate components
    TriangleSoup model = g::torus(14, 9);
    for (const TriangleSoup& part : {g::grid(5, 4), g::bowtie()}) {
        const auto base = static_cast<std::uint32_t>(model.positions.size());
        for (auto p : part.positions) {
            p[0] += 10.f + base;  // keep the parts apart
            model.positions.push_back(p);
        }
        for (auto t : part.faces)
            model.faces.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
    const rxmesh::MeshStats expected = welded_stats(model);
    ASSERT_EQ(expected.components, 3u);
    ASSERT_EQ(expected.nonmanifold_vertices, 1u);

    const std::string dir = rxmesh::test::tmp_dir();
    rxmesh::io::write_obj(dir + "/cross.obj", model);
    rxmesh::io::write_ply(dir + "/cross.ply", model);
    write_text(dir + "/cross.off", off_text(model));
    write_text(dir + "/cross.stl", stl_text(model));
    for (const char* ext : {"obj", "ply", "off", "stl"}) {
        SCOPED_TRACE(ext);
        const TriangleSoup soup = rxmesh::io::read(dir + "/cross." + ext);
        EXPECT_TRUE(welded_stats(soup) == expected);
    }
}
