// DynamicMesh: a triangle mesh whose topology changes on the GPU.
//
//   DynamicMesh mesh(soup);                       // or DynamicMesh(rxmesh)
//   PassReport r = mesh.flip_pass(decide);        // dynamic_pass.cuh
//   mesh.validate();                              // after any pass
//   CompactMesh out = mesh.compact();             // flat device arrays
//   RXMesh patched = mesh.to_rxmesh();            // the eight queries
//
// Storage is flat and global: vertex and face slots, deleted ones marked,
// new ones appended; capacity grows by itself (no knob), so a pass never
// runs out of room. Each pass derives the edge table from the faces
// (connectivity.h), so patches never need slack, slicing or migration: the
// patched RXMesh for queries is built from the compact output on demand.
// Ids: vertex slot v < input vertex count is input vertex v; new vertices
// and faces get the next slots, in the order of the edges that made them.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/ids.h"
#include "rxmesh/dynamic/attribute_events.h"
#include "rxmesh/dynamic/connectivity.h"
#include "rxmesh/dynamic/edge_op.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

class RXMesh;  // rxmesh.h: the static mesh (include it to call to_rxmesh)
struct BuildOptions;

template <typename T, int N, typename Id>
class DynamicAttribute;
template <typename T, int N>
struct AttributeValue;

namespace dynamic_detail {
class Connectivity;
class PassWorkspace;
//! DecisionArrays::asked of an edge the callback was not called for
//! (AskEdges::NearLastChanges); otherwise 1 for yes, 0 for no.
inline constexpr std::uint8_t kSkipped = 2;
}  // namespace dynamic_detail

struct DynamicOptions
{
    //! Threads per block of every engine kernel (fewer for a kernel whose
    //! callback needs more registers than that many threads may have);
    //! results never depend on it.
    std::uint32_t block_threads = 256;
};

//! The alive mesh, densely renumbered on the device: vertices in slot order,
//! faces in slot order (input elements first, in input order).
struct CompactMesh
{
    DeviceBuffer<float>         positions;      // 3 per vertex
    DeviceBuffer<std::uint32_t> faces;          // 3 per face
    DeviceBuffer<std::uint32_t> input_vertex;   // input vertex id, kNoElement if created
    DeviceBuffer<std::uint32_t> vertex_slot;    // the DynamicMesh slot of each vertex
    DeviceBuffer<std::uint32_t> face_slot;      // the DynamicMesh slot of each face
    std::uint32_t               num_vertices = 0;
    std::uint32_t               num_faces    = 0;

    //! Downloads positions and faces; input_vertex too when asked.
    TriangleSoup to_host(std::vector<std::uint32_t>* input_vertex = nullptr) const;
};

struct DynamicValidation
{
    std::uint64_t bad_faces       = 0;  // a dead or repeated vertex
    std::uint64_t duplicate_faces = 0;  // the same vertex set as another face
    std::uint64_t count_mismatch  = 0;  // alive counts differ from the mesh's own
    std::uint64_t table_mismatch  = 0;  // the edge table disagrees with the faces
    std::string   first;                // the first violation, in words

    bool ok() const
    {
        return bad_faces == 0 && duplicate_faces == 0 && count_mismatch == 0 &&
               table_mismatch == 0;
    }
};

struct DynamicMemory
{
    std::size_t mesh         = 0;  // positions, faces, alive flags (capacity)
    std::size_t connectivity = 0;  // the edge table of the current pass
    std::size_t workspace    = 0;  // a pass's decisions, statuses, locks, sort buffers
    std::size_t attributes   = 0;  // the user's, at capacity
    //! The most held at once: the above with the edge table's largest build
    //! (its sort buffers) in place of the current table.
    std::size_t peak         = 0;
    std::size_t total() const { return mesh + connectivity + workspace + attributes; }
};

class DynamicMesh
{
   public:
    //! Every input vertex becomes a vertex slot (unused ones are isolated
    //! vertices). \throw InvalidInputError for an index out of range, a face
    //! repeating a vertex, or a non-finite position.
    explicit DynamicMesh(const TriangleSoup& soup, const DynamicOptions& options = {},
                         cudaStream_t stream = 0);
    //! The static mesh's vertices (global ids) and faces, on the device.
    explicit DynamicMesh(const RXMesh& mesh, const DynamicOptions& options = {},
                         cudaStream_t stream = 0);
    //! A mesh already in device memory (3 floats per vertex, 3 vertex ids
    //! per face, e.g. a PyTorch or CuPy tensor's memory), copied on `stream`
    //! with no host copy and no patches built; vertex i is slot i, as from a
    //! TriangleSoup. The caller keeps both arrays alive and unchanged until
    //! the constructor returns. \throw InvalidInputError as for a soup (the
    //! first bad face or vertex named), checked on the device.
    DynamicMesh(VertexView<const float, 3> positions, FaceView<const std::uint32_t, 3> faces,
                const DynamicOptions& options = {}, cudaStream_t stream = 0);
    ~DynamicMesh();
    DynamicMesh(DynamicMesh&&) noexcept;
    DynamicMesh& operator=(DynamicMesh&&) noexcept;

    std::uint32_t num_vertices() const { return m_num_vertices; }  // alive
    std::uint32_t num_faces() const { return m_num_faces; }        // alive
    std::uint32_t num_edges();                                     // builds the edge table
    std::uint32_t num_vertex_slots() const { return m_vertex_slots; }
    std::uint32_t num_face_slots() const { return m_face_slots; }
    std::uint32_t num_input_vertices() const { return m_input_vertices; }
    const DynamicOptions& options() const { return m_options; }
    cudaStream_t          stream() const { return m_stream; }

    //! V - E + F over alive elements, isolated vertices included.
    std::int64_t euler_characteristic();
    //! No non-manifold edge and no non-manifold vertex.
    bool is_manifold();
    DynamicValidation validate();

    //! The edge table of the current faces (rebuilt only after a change).
    const ConnectivityView& connectivity();

    // ---- attributes (templates in dynamic_attribute.cuh) ----
    //! Values that follow their elements through every pass; what operations
    //! create gets values by `rule` (attribute_events.h). The handle's
    //! view() is valid until the next pass.
    template <typename T, int N>
    std::shared_ptr<DynamicAttribute<T, N, VertexId>> add_vertex_attribute(
        const std::string& name, AttributeRule rule, AttributeValue<T, N> fill = {});
    template <typename T, int N>
    std::shared_ptr<DynamicAttribute<T, N, EdgeId>> add_edge_attribute(
        const std::string& name, AttributeRule rule, AttributeValue<T, N> fill = {});
    template <typename T, int N>
    std::shared_ptr<DynamicAttribute<T, N, FaceId>> add_face_attribute(
        const std::string& name, AttributeRule rule, AttributeValue<T, N> fill = {});

    //! Stops updating an attribute (its handle keeps the values); the mesh
    //! no longer holds it. Unknown attributes are ignored.
    void remove_attribute(const DynamicAttributeBase& attribute);

    // ---- passes (templates in dynamic_pass.cuh) ----
    //! limits: edge_op.h (by default every candidate competes).
    template <typename Decide>
    PassReport flip_pass(Decide decide, const PassLimits& limits = {});
    template <typename Decide>
    PassReport split_pass(Decide decide, const PassLimits& limits = {});
    template <typename Decide>
    PassReport collapse_pass(Decide decide, const PassLimits& limits = {});
    //! visit(VertexContext) for every alive vertex (reads only: to fill an
    //! attribute from the one-rings, say).
    template <typename Visit>
    void for_each_vertex(Visit visit);
    //! new_position(VertexContext) for every alive vertex, all reading the
    //! positions from before the call.
    template <typename NewPosition>
    void move_vertices(NewPosition new_position);

    //! The edges of the current table, (a, b) with a < b, by edge id.
    std::vector<std::array<std::uint32_t, 2>> edges();
    //! The status of every edge of the last pass, by its edge id then.
    std::vector<EdgeOpStatus>                 last_statuses() const;
    //! The edges of the last pass, (a, b) with a < b, by edge id.
    std::vector<std::array<std::uint32_t, 2>> last_edges() const;

    // ---- outputs ----
    CompactMesh  compact() const;
    TriangleSoup to_host(std::vector<std::uint32_t>* input_vertex = nullptr) const;
    RXMesh       to_rxmesh() const;
    RXMesh       to_rxmesh(const BuildOptions& options) const;
    //! The positions and faces of every slot (dead faces kDeadFace), for tests.
    std::vector<float>         slot_positions() const;
    std::vector<std::uint32_t> slot_faces() const;

    DynamicMemory memory() const;
    //! Frees the pass workspace (the next pass allocates it again).
    void release_workspace();

    // ---- used by dynamic_pass.cuh ----
    //! Sizes the decision arrays for the current edge table; returns them.
    struct DecisionArrays
    {
        std::uint8_t*       asked;     // 1 yes, 0 no, kSkipped
        float*              position;  // 3 per edge; null for flips
        float*              priority;
        const std::uint8_t* near;      // per vertex slot: ask only edges at one; null: every edge
    };
    DecisionArrays begin_pass(EdgeOpKind kind, const PassLimits& limits);
    PassReport     finish_pass(EdgeOpKind kind, const PassLimits& limits = {});
    float*         scratch_positions();  // 3 per vertex slot, for move_vertices
    void           commit_moved_positions();

   private:
    void upload(const std::vector<float>& positions, const std::vector<std::uint32_t>& faces);
    //! Copies a mesh in device memory in (both device constructors).
    void copy_from_device(const float* positions, const std::uint32_t* faces,
                          std::uint32_t num_vertices, std::uint32_t num_faces);
    void reserve(std::uint32_t vertex_slots, std::uint32_t face_slots);
    void mark_changed() { m_connectivity_current = false; }
    void remap_flipped_edges(std::uint32_t count);
    bool has_edge_attributes() const;
    void rebuild_in_pair_order();
    void carry_edge_values(bool sort_old, const std::uint32_t* merged_into,
                           const std::uint32_t* split_winners, std::uint32_t vertex_base);
    std::uint64_t check_table();
    void attach(std::shared_ptr<DynamicAttributeBase> attribute);
    void notify_attributes(EdgeOpKind kind, const AppliedEdges& applied);
    void remap_edge_attributes(EdgeOpKind kind, std::uint32_t count, std::uint32_t vertex_base);
    void run_checks_and_apply(EdgeOpKind kind, const PassLimits& limits, PassReport& report);
    void mark_touched(EdgeOpKind kind, std::uint32_t winners);
    std::uint32_t select_candidates(std::uint32_t num_edges, std::uint32_t counts[5]);
    void          keep_cheapest(std::uint32_t count, std::uint32_t keep);
    std::uint32_t resolve_conflicts(EdgeOpKind kind, std::uint32_t count, std::uint32_t* rounds);
    std::uint32_t winner_face_offsets(std::uint32_t count);
    void          apply(EdgeOpKind kind, std::uint32_t count);

    DynamicOptions m_options;
    cudaStream_t   m_stream = 0;

    DeviceBuffer<float>         m_positions;     // 3 per vertex slot (capacity)
    DeviceBuffer<std::uint32_t> m_faces;         // 3 per face slot (capacity)
    DeviceBuffer<std::uint8_t>  m_vertex_alive;  // per vertex slot (capacity)
    std::uint32_t               m_vertex_slots = 0, m_face_slots = 0;
    std::uint32_t               m_num_vertices = 0, m_num_faces = 0;
    std::uint32_t               m_input_vertices = 0;

    std::unique_ptr<dynamic_detail::Connectivity>  m_connectivity;
    std::unique_ptr<dynamic_detail::PassWorkspace> m_workspace;
    ConnectivityView                               m_view;
    DeviceBuffer<float>                            m_moved;  // move_vertices' output
    std::vector<std::shared_ptr<DynamicAttributeBase>> m_attributes;
    DeviceBuffer<std::uint32_t>                    m_edge_sources;
    bool                                           m_connectivity_current = false;
    bool m_table_canonical = true;  // edge ids in vertex-pair order
    //! Per vertex slot: touched by the last pass (AskEdges::NearLastChanges);
    //! m_touched_known is false until a pass has run, and after a move.
    DeviceBuffer<std::uint8_t> m_touched;
    bool                       m_touched_known = false;
};

}  // namespace rxmesh
