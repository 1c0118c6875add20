// Every query op in turn, for the tests that check each of them alike.
#pragma once

#include <type_traits>

#include "rxmesh/query/op.h"

namespace rxmesh::test {

template <Op op>
using OpConstant = std::integral_constant<Op, op>;

//! Calls f(OpConstant<op>{}) for each of `ops`, in order.
template <Op... ops, typename F>
void for_ops(F&& f)
{
    (f(OpConstant<ops>{}), ...);
}

//! Calls f(OpConstant<op>{}) for each of the eight queries, in Op's order.
template <typename F>
void for_each_op(F&& f)
{
    for_ops<Op::VV, Op::VE, Op::VF, Op::EV, Op::EF, Op::FV, Op::FE, Op::FF>(f);
}

}  // namespace rxmesh::test
