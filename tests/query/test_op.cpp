// OpTraits<op> (query/op.h) holds every per-query fact, and the Op-taking
// wrappers read exactly those; the accumulate members' template arguments
// (query/accumulate_args.h): T and N read from a finalize functor where it
// has one plain operator(), never where it is generic; Combine told apart
// from a value type.
#include <gtest/gtest.h>

#include <limits>
#include <type_traits>

#include "each_op.h"
#include "rxmesh/query/accumulate_args.h"
#include "rxmesh/query/combine.h"
#include "rxmesh/query/op.h"

namespace {

using namespace rxmesh;

template <Op op>
void expect_wrappers_read_the_traits()
{
    using T = OpTraits<op>;
    SCOPED_TRACE(to_string(op));
    EXPECT_EQ(is_direct_query(op), T::direct);
    EXPECT_EQ(can_orient(op), T::orientable);
    EXPECT_EQ(default_query_threads(op), T::default_threads);
    EXPECT_EQ(query_max_registers(op), T::max_registers);
    const OpFacts f = op_facts(op);
    EXPECT_EQ(f.row_length, T::row_length);
    // a direct query's rows have a fixed length; the staged ones' vary
    EXPECT_EQ(T::direct, T::row_length > 0);
    EXPECT_EQ(T::default_threads % 32, 0);
}

}  // namespace

TEST(OpTraits, SourcesAndOutputs)
{
    static_assert(std::is_same_v<OpTraits<Op::VV>::Source, VertexId>);
    static_assert(std::is_same_v<OpTraits<Op::VE>::Output, EdgeId>);
    static_assert(std::is_same_v<OpTraits<Op::VF>::Output, FaceId>);
    static_assert(std::is_same_v<OpTraits<Op::EV>::Source, EdgeId>);
    static_assert(std::is_same_v<OpTraits<Op::EF>::Output, FaceId>);
    static_assert(std::is_same_v<OpTraits<Op::FV>::Output, VertexId>);
    static_assert(std::is_same_v<OpTraits<Op::FE>::Output, EdgeId>);
    static_assert(std::is_same_v<OpTraits<Op::FF>::Source, FaceId>);
    SUCCEED();
}

TEST(OpTraits, DirectQueriesAndTheirRowLengths)
{
    // EV: an edge's two vertices; FV, FE: a face's three vertices / edges
    static_assert(OpTraits<Op::EV>::direct && OpTraits<Op::EV>::row_length == 2);
    static_assert(OpTraits<Op::FV>::direct && OpTraits<Op::FV>::row_length == 3);
    static_assert(OpTraits<Op::FE>::direct && OpTraits<Op::FE>::row_length == 3);
    for (Op op : {Op::VV, Op::VE, Op::VF, Op::EF, Op::FF}) {
        EXPECT_FALSE(is_direct_query(op)) << to_string(op);
        EXPECT_EQ(op_facts(op).row_length, 0) << to_string(op);
    }
}

TEST(OpTraits, OrientationBlockSizesAndRegisterCaps)
{
    for (Op op : {Op::VV, Op::VE, Op::VF})
        EXPECT_TRUE(can_orient(op)) << to_string(op);
    for (Op op : {Op::EV, Op::EF, Op::FV, Op::FE, Op::FF})
        EXPECT_FALSE(can_orient(op)) << to_string(op);
    // measured (benchmarks/results): VV, VE at 64 threads, the others at 128
    EXPECT_EQ(default_query_threads(Op::VV), 64);
    EXPECT_EQ(default_query_threads(Op::VE), 64);
    for (Op op : {Op::VF, Op::EV, Op::EF, Op::FV, Op::FE, Op::FF})
        EXPECT_EQ(default_query_threads(op), 128) << to_string(op);
    // direct queries are capped at 32 registers whatever the override
    for (Op op : {Op::EV, Op::FV, Op::FE})
        EXPECT_EQ(query_max_registers(op), 32) << to_string(op);
#if RXMESH_QUERY_MAX_REGISTERS < 0
    EXPECT_EQ(query_max_registers(Op::EF), 32);
    EXPECT_EQ(query_max_registers(Op::FF), 32);
    for (Op op : {Op::VV, Op::VE, Op::VF})
        EXPECT_EQ(query_max_registers(op), 0) << to_string(op);
#endif
}

TEST(OpTraits, WrappersReadTheTraits)
{
    rxmesh::test::for_each_op(
        [](auto op) { expect_wrappers_read_the_traits<decltype(op)::value>(); });
}

namespace {

struct StoreFloat3
{
    void operator()(VertexId, const float (&)[3]) const {}
};
struct ReturnsDouble  // accumulate_sum's finalize, by reference id, not const
{
    double operator()(const VertexId&, const unsigned long long (&)[1]) { return 0; }
};
struct NoexceptFinalize
{
    void operator()(VertexId, const double (&)[2]) const noexcept {}
};
struct Generic
{
    template <typename T, int N>
    void operator()(VertexId, const T (&)[N]) const
    {
    }
};
struct Overloaded
{
    void operator()(VertexId, const float (&)[1]) const {}
    void operator()(VertexId, const double (&)[1]) const {}
};

}  // namespace

TEST(AccumulateArgs, TAndNReadFromFinalize)
{
    using detail::FinalizeArgs;
    static_assert(FinalizeArgs<StoreFloat3>::deduced);
    static_assert(std::is_same_v<FinalizeArgs<StoreFloat3>::type, float>);
    static_assert(FinalizeArgs<StoreFloat3>::size == 3);
    static_assert(FinalizeArgs<ReturnsDouble>::deduced);
    static_assert(std::is_same_v<FinalizeArgs<ReturnsDouble>::type, unsigned long long>);
    static_assert(FinalizeArgs<ReturnsDouble>::size == 1);
    static_assert(FinalizeArgs<NoexceptFinalize>::deduced);
    static_assert(FinalizeArgs<NoexceptFinalize>::size == 2);
    // nothing to read: the caller gives T and N
    static_assert(!FinalizeArgs<Generic>::deduced);
    static_assert(!FinalizeArgs<Overloaded>::deduced);
    static_assert(!FinalizeArgs<int>::deduced);
    SUCCEED();
}

TEST(AccumulateArgs, CombineToldApartFromValueTypes)
{
    static_assert(detail::IsCombine<Plus>::value);
    static_assert(detail::IsCombine<Min>::value);
    static_assert(!detail::IsCombine<float>::value);
    static_assert(!detail::IsCombine<unsigned long long>::value);
    static_assert(!detail::IsCombine<StoreFloat3>::value);
    static_assert(detail::IsCombine<PerComponent<Plus, 3, Min>>::value);
    SUCCEED();
}

TEST(AccumulateArgs, PerComponentCombinesEachValueByItsOwnRule)
{
    using C = PerComponent<Plus, 2, Min>;
    // values 0 and 1 sum from 0; value 2 keeps the least, from +infinity
    EXPECT_EQ((detail::combine_identity<C, float>(0)), 0.f);
    EXPECT_EQ((detail::combine_identity<C, float>(1)), 0.f);
    EXPECT_EQ((detail::combine_identity<C, float>(2)), std::numeric_limits<float>::infinity());
    EXPECT_EQ((detail::combine_identity<C, int>(2)), std::numeric_limits<int>::max());
    EXPECT_EQ(detail::combine_apply<C>(0, 2.f, 3.f), 5.f);
    EXPECT_EQ(detail::combine_apply<C>(1, 2.f, 3.f), 5.f);
    EXPECT_EQ(detail::combine_apply<C>(2, 2.f, 3.f), 2.f);
    EXPECT_EQ(detail::combine_apply<C>(2, 4.f, 3.f), 3.f);
    // the uniform ones through the same helpers
    EXPECT_EQ((detail::combine_identity<Min, float>(0)), std::numeric_limits<float>::infinity());
    EXPECT_EQ(detail::combine_apply<Plus>(5, 2, 3), 5);
    EXPECT_EQ(detail::combine_apply<Min>(0, 2, 3), 2);
}
