// DynamicMesh refuses bad input with a message naming the problem, before
// any device work (so these run without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "rxmesh/core/error.h"
#include "rxmesh/dynamic/dynamic_mesh.h"

namespace {

std::string message_of(const rxmesh::TriangleSoup& soup)
{
    try {
        rxmesh::DynamicMesh mesh(soup);
    } catch (const rxmesh::InvalidInputError& e) {
        return e.what();
    }
    return "";
}

rxmesh::TriangleSoup triangle()
{
    rxmesh::TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    s.faces     = {{0, 1, 2}};
    return s;
}

}  // namespace

TEST(DynamicInput, IndexOutOfRange)
{
    auto s = triangle();
    s.faces.push_back({0, 2, 7});
    EXPECT_EQ(message_of(s), "DynamicMesh: face 1 names vertex 7 of 3");
}

TEST(DynamicInput, RepeatedVertex)
{
    auto s = triangle();
    s.faces.push_back({1, 1, 2});
    EXPECT_EQ(message_of(s), "DynamicMesh: face 1 repeats a vertex");
}

TEST(DynamicInput, NonFinitePosition)
{
    auto s         = triangle();
    s.positions[2] = {0.f, NAN, 0.f};
    EXPECT_EQ(message_of(s), "DynamicMesh: vertex 2 has a non-finite coordinate");
}
