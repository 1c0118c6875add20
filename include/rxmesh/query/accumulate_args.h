// The template arguments of RXMesh's accumulate members
// (<op, T, N, Combine, BlockThreads, MinBlocks>, or <op, Combine,
// BlockThreads, MinBlocks> with T and N read from finalize):
// - FinalizeArgs<F>: the T and N of a finalize functor, read from its one,
//   non-template `operator()(VertexId, const T (&)[N])`. Where they cannot be
//   read (a generic or overloaded operator(), or any extended lambda: nvcc
//   hands the host compiler a placeholder type for those, so host and device
//   passes would disagree), `deduced` is false and the caller gives T and N
//   (accumulate<op, T, N>(...)).
// - IsCombine<C>: whether the argument after op is a Combine
//   (query/combine.h: identity<T>() and apply, or PerComponent's
//   identity_at and apply_at), which tells the two forms
//   apart: accumulate<Op::FV, Min>(...) reads T and N, accumulate<Op::FV,
//   float, 3>(...) gives them.
#pragma once

#include <type_traits>

#include "rxmesh/core/ids.h"
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
    struct FinalizeSignature<R (C::*)(ID, const T (&)[N]) QUALIFIERS> \
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

//! Fails to compile, with the way out, when T and N cannot be read.
template <typename Finalize>
constexpr bool require_finalize_args()
{
    static_assert(FinalizeArgs<Finalize>::deduced,
                  "accumulate<op>: T and N cannot be read from finalize (a lambda, or a "
                  "generic or overloaded operator()): give them, accumulate<op, T, N>(...)");
    return FinalizeArgs<Finalize>::deduced;
}

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
struct IsCombine
    : std::bool_constant<CombinesUniformly<C>::value || CombinesPerComponent<C>::value>
{
};

//! The return types (void) that enable one form of accumulate or the other.
template <typename T>
using IfValueType = std::enable_if_t<!IsCombine<T>::value>;
template <typename Combine>
using IfCombine = std::enable_if_t<IsCombine<Combine>::value>;

}  // namespace rxmesh::detail
