// The template arguments of RXMesh's accumulate members, <op, T, N,
// Combine, Policy>, resolved into what the launch needs (AccumulateValues):
// - T and N given (accumulate<op, float, 3>): those;
// - T left out or FromFinalize (accumulate<op>, accumulate<op, FromFinalize,
//   0, Min, P>), or a Combine in T's place (accumulate<op, Min>): read from
//   finalize's one, non-template `operator()(VertexId, const T (&)[N])`
//   (FinalizeArgs). Where they cannot be read (a generic or overloaded
//   operator(), or any extended lambda: nvcc hands the host compiler a
//   placeholder type for those, so host and device passes would disagree),
//   compilation stops with the way out: give T and N.
// IsCombine<C> tells a Combine (query/combine.h: identity<T>() and apply, or
// PerComponent's identity_at and apply_at) in T's place from a value type.
#pragma once

#include <type_traits>

#include "rxmesh/core/ids.h"
#include "rxmesh/query/accumulate_policy.h"
#include "rxmesh/query/combine.h"

namespace rxmesh::detail {

template <typename Member>
struct FinalizeSignature
{
    static constexpr bool deduced = false;
    using type                    = void;
    static constexpr int size     = 0;
};

// every way to declare that operator() (noexcept is part of the type)
#define RXMESH_FINALIZE_SIGNATURE(ID, QUALIFIERS)                    \
    template <typename C, typename R, typename T, int N>             \
    struct FinalizeSignature<R (C::*)(ID, const T(&)[N]) QUALIFIERS> \
    {                                                                \
        static constexpr bool deduced = true;                        \
        using type                    = T;                           \
        static constexpr int size     = N;                           \
    };
RXMESH_FINALIZE_SIGNATURE(VertexId, )
RXMESH_FINALIZE_SIGNATURE(VertexId, const)
RXMESH_FINALIZE_SIGNATURE(const VertexId&, )
RXMESH_FINALIZE_SIGNATURE(const VertexId&, const)
RXMESH_FINALIZE_SIGNATURE(VertexId, noexcept)
RXMESH_FINALIZE_SIGNATURE(VertexId, const noexcept)
RXMESH_FINALIZE_SIGNATURE(const VertexId&, noexcept)
RXMESH_FINALIZE_SIGNATURE(const VertexId&, const noexcept)
#undef RXMESH_FINALIZE_SIGNATURE

template <typename F, typename = void>
struct CallOperatorSignature : FinalizeSignature<void>
{
};
template <typename F>
struct CallOperatorSignature<F, std::void_t<decltype(&F::operator())>>
    : FinalizeSignature<decltype(&F::operator())>
{
};

//! Whether F is an extended (__device__ or __host__ __device__) lambda.
template <typename F>
constexpr bool is_extended_lambda()
{
#if defined(__CUDACC__) && defined(__CUDACC_EXTENDED_LAMBDA__)
    return __nv_is_extended_device_lambda_closure_type(F) ||
           __nv_is_extended_host_device_lambda_closure_type(F);
#else
    return false;
#endif
}

template <typename Finalize>
struct FinalizeArgs : std::conditional_t<is_extended_lambda<Finalize>(), FinalizeSignature<void>,
                                         CallOperatorSignature<Finalize>>
{
};

template <typename C, typename = void>
struct CombinesUniformly : std::false_type
{
};
template <typename C>
struct CombinesUniformly<
    C, std::void_t<decltype(&C::template identity<int>), decltype(&C::template apply<int>)>>
    : std::true_type
{
};
//! Plus, Min or a PerComponent of them (query/combine.h).
template <typename C>
struct IsCombine : std::bool_constant<CombinesUniformly<C>::value || CombinesPerComponent<C>::value>
{
};

//! What accumulate<op, T, N, Combine, Policy> sums: `type` and `size` (T and
//! N, given or read from finalize) and `combine`; `ok` is false (after a
//! static_assert that says why) when they cannot be resolved, so that the
//! caller launches nothing.
template <typename T, int N, typename Combine, typename Policy, typename Finalize>
struct AccumulateValues
{
    static constexpr bool combine_in_t  = IsCombine<T>::value;
    static constexpr bool from_finalize = combine_in_t || std::is_same_v<T, FromFinalize>;
    using Read                          = FinalizeArgs<Finalize>;

    using type                = std::conditional_t<from_finalize, typename Read::type, T>;
    using combine             = std::conditional_t<combine_in_t, T, Combine>;
    static constexpr int size = from_finalize ? Read::size : N;

    static_assert(IsAccumulatePolicy<Policy>::value,
                  "accumulate: the fifth template argument is the launch, an "
                  "AccumulatePolicy<BlockThreads, MinBlocks, Form>");
    static_assert(!combine_in_t || (N == 0 && std::is_same_v<Combine, Plus>),
                  "accumulate<op, Combine>: with more arguments write "
                  "accumulate<op, FromFinalize, 0, Combine, Policy>");
    static_assert(!from_finalize || Read::deduced,
                  "accumulate<op>: T and N cannot be read from finalize (a lambda, or a "
                  "generic or overloaded operator()): give them, accumulate<op, T, N>(...)");
    static_assert(from_finalize || N > 0, "accumulate<op, T, N>: N must be at least 1");
    static_assert(IsCombine<combine>::value,
                  "accumulate: the fourth template argument must be a Combine "
                  "(query/combine.h: Plus, Min, PerComponent)");
    static constexpr bool ok = IsAccumulatePolicy<Policy>::value &&
                               (!from_finalize || Read::deduced) && (from_finalize || N > 0);
};

}  // namespace rxmesh::detail
