// What a DynamicMesh tells its attributes after applying a pass, so that
// values follow their elements (dynamic_attribute.cuh). Plain structs of
// device pointers; ids as in the pass's ConnectivityView.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/ids.h"
#include "rxmesh/dynamic/connectivity.h"

namespace rxmesh {

//! How an attribute fills what an operation creates or rewrites.
enum class AttributeRule : std::uint8_t {
    //! A split's new vertex: the mean of the edge's two values; a collapse's
    //! surviving vertex: the mean of both (integers: as Copy). Faces and
    //! edges: as Copy.
    Interpolate,
    //! A split's new vertex takes the smaller-id vertex's value; a collapse's
    //! survivor keeps its own; the halves of a split face or edge keep the
    //! parent's value; flipped faces keep theirs; other new edges: fill.
    Copy,
    //! Everything an operation creates or rewrites gets the fill value
    //! (new and surviving vertices, split and flipped faces, new edges).
    Fill,
    //! A collapse's surviving vertex: the sum of both values (error
    //! quadrics); a split's new vertex: the mean, as Interpolate. Faces and
    //! edges: as Copy.
    Sum,
};

//! The winners of a pass, edges of `c`, in the order they were applied.
struct AppliedEdges
{
    ConnectivityView     c;
    const std::uint32_t* winners     = nullptr;
    std::uint32_t        count       = 0;
    const std::uint32_t* face_offset = nullptr;  // split: winner i's new faces start here
    std::uint32_t        vertex_base = 0;        // split: winner i made vertex_base + i
    std::uint32_t        face_base   = 0;
};

//! Edge e of the rebuilt table takes its value from old edge source[e] &
//! kSourceIndex; kFromParent marks the halves of a split edge; kNoElement:
//! the edge is new.
struct EdgeSources
{
    static constexpr std::uint32_t kFromParent  = 0x80000000u;
    static constexpr std::uint32_t kSourceIndex = 0x7FFFFFFFu;
    const std::uint32_t*           source       = nullptr;
    std::uint32_t                  num_edges    = 0;
};

class DynamicAttributeBase
{
   public:
    virtual ~DynamicAttributeBase() = default;
    virtual ElementKind kind() const = 0;
    //! Room for `elements`, keeping the first `keep`; new room holds fill.
    virtual void reserve(std::size_t elements, std::size_t keep, cudaStream_t stream) = 0;
    //! The number of live elements (slots, or edges of the table).
    virtual void set_count(std::size_t count) = 0;
    virtual void after_split(const AppliedEdges&, cudaStream_t) {}
    virtual void after_collapse(const AppliedEdges&, cudaStream_t) {}
    virtual void after_flip(const AppliedEdges&, cudaStream_t) {}
    virtual void remap_edges(const EdgeSources&, cudaStream_t) {}
    virtual std::size_t bytes() const = 0;
};

}  // namespace rxmesh
