// AttributeRegistry bookkeeping without a GPU: a registry with zero elements
// of every kind never makes a CUDA call, so names, errors and type checks are
// tested here; the GPU tests (tests/attribute/test_attribute.cu) cover storage.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "rxmesh/attribute/registry.h"

namespace {

using namespace rxmesh;

//! Runs f, expects an rxmesh::Error whose message contains every `parts`.
template <typename F>
void expect_error_mentioning(F&& f, const std::vector<std::string>& parts)
{
    try {
        f();
        ADD_FAILURE() << "no rxmesh::Error thrown";
    } catch (const Error& e) {
        const std::string what = e.what();
        for (const auto& p : parts)
            EXPECT_NE(what.find(p), std::string::npos) << "'" << what << "' lacks '" << p << "'";
    }
}

TEST(AttributeRegistryHost, AddGetContainsNamesRemove)
{
    AttributeRegistry reg(0, 0, 0);
    EXPECT_TRUE(reg.names().empty());
    EXPECT_FALSE(reg.contains("w"));

    auto w = reg.add<float, 1, VertexId>("w", 2.f);
    auto e = reg.add<int, 2, EdgeId>("e");
    auto f = reg.add<double, 3, FaceId>("a_face", 1.0);
    EXPECT_EQ(w.num_elements(), 0u);
    EXPECT_EQ(e.num_values(), 0u);
    EXPECT_EQ(f.num_values(), 0u);
    EXPECT_TRUE(reg.contains("w"));
    EXPECT_TRUE(reg.contains("e"));
    EXPECT_EQ(reg.names(), (std::vector<std::string>{"a_face", "e", "w"}));  // sorted
    EXPECT_EQ(reg.size(), 3u);

    // get returns a handle to the same storage
    EXPECT_EQ((reg.get<float, 1, VertexId>("w").host_data()), w.host_data());
    EXPECT_EQ((reg.get<int, 2, EdgeId>("e").host_data()), e.host_data());

    reg.remove("e");
    EXPECT_FALSE(reg.contains("e"));
    EXPECT_EQ(reg.names(), (std::vector<std::string>{"a_face", "w"}));
    // the name can be used again, with another type
    reg.add<std::uint8_t, 4, EdgeId>("e");
    EXPECT_TRUE(reg.contains("e"));
}

TEST(AttributeRegistryHost, Errors)
{
    AttributeRegistry reg(0, 0, 0);
    reg.add<float, 3, VertexId>("x");

    expect_error_mentioning([&] { reg.add<float, 3, VertexId>("x"); }, {"'x'", "already exists"});
    expect_error_mentioning([&] { reg.add<int, 1, FaceId>("x"); }, {"'x'", "already exists"});
    expect_error_mentioning([&] { reg.add<int, 1, FaceId>(""); }, {"non-empty"});
    // add_unset checks names the same way
    expect_error_mentioning([&] { reg.add_unset<int, 1, FaceId>("x"); }, {"'x'", "already exists"});
    expect_error_mentioning([&] { reg.add_unset<int, 1, FaceId>(""); }, {"non-empty"});
    reg.add_unset<int, 2, EdgeId>("unset");
    EXPECT_TRUE(reg.contains("unset"));
    expect_error_mentioning([&] { reg.get<int, 1, EdgeId>("unset"); }, {"'unset'", "x2 per edge"});
    reg.remove("unset");
    expect_error_mentioning([&] { reg.get<float, 3, VertexId>("missing"); }, {"'missing'"});
    // another value type, component count, element kind
    expect_error_mentioning([&] { reg.get<double, 3, VertexId>("x"); },
                            {"'x'", "float x3 per vertex", "double x3 per vertex"});
    expect_error_mentioning([&] { reg.get<float, 1, VertexId>("x"); },
                            {"'x'", "float x1 per vertex"});
    expect_error_mentioning([&] { reg.get<float, 3, EdgeId>("x"); },
                            {"'x'", "float x3 per edge"});
    expect_error_mentioning([&] { reg.get<float, 3, FaceId>("x"); },
                            {"'x'", "float x3 per face"});
    expect_error_mentioning([&] { reg.remove("missing"); }, {"'missing'"});
    // the failed calls changed nothing
    EXPECT_EQ(reg.names(), std::vector<std::string>{"x"});
    EXPECT_NO_THROW((reg.get<float, 3, VertexId>("x")));
}

TEST(AttributeRegistryHost, MoveKeepsStorage)
{
    AttributeRegistry a(0, 0, 0);
    auto              h = a.add<double, 2, VertexId>("h");
    AttributeRegistry b(std::move(a));
    EXPECT_TRUE(b.contains("h"));
    EXPECT_EQ((b.get<double, 2, VertexId>("h").host_data()), h.host_data());

    AttributeRegistry c(0, 0, 0);
    c.add<int, 1, EdgeId>("old");
    c = std::move(b);
    EXPECT_FALSE(c.contains("old"));
    EXPECT_EQ((c.get<double, 2, VertexId>("h").host_data()), h.host_data());
}

TEST(AttributeRegistryHost, ElementCounts)
{
    AttributeRegistry reg(0, 0, 0);
    EXPECT_EQ(reg.num_elements<VertexId>(), 0u);
    const AttributeRegistry sized(7, 11, 5);  // nothing allocated until add()
    EXPECT_EQ(sized.num_elements<VertexId>(), 7u);
    EXPECT_EQ(sized.num_elements<EdgeId>(), 11u);
    EXPECT_EQ(sized.num_elements<FaceId>(), 5u);
}

}  // namespace
