// TriangleBvh: a bounding-volume hierarchy over a triangle mesh in device
// memory, for closest-point queries on the GPU (projection onto the input in
// remeshing, Hausdorff distances).
//
//   TriangleBvh bvh(positions_view, faces_view);          // device arrays
//   bvh.closest_points(queries, n, points, distances, faces);
//   // or, in a kernel: bvh.view().closest(p)  (bvh.cuh)
//
// Build (Karras, "Maximizing parallelism in the construction of BVHs,
// octrees, and k-d trees", HPG 2012): 30-bit Morton codes of the face
// centroids, sorted by CUB; every internal node found from the sorted codes
// alone (equal codes ordered by position); boxes bottom-up, the second
// child to arrive at a node computing it. Queries descend nearer child first
// and skip a box only when it is farther than the best so far, so among
// equally near faces the lowest id wins, as in the serial oracle
// (reference/closest_point_tree.h).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/vec3.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

//! A node's children: kLeafBit set for a leaf (its sorted position).
inline constexpr std::uint32_t kBvhLeafBit = 0x80000000u;

struct BvhBox
{
    float lo[3], hi[3];
};

//! The hierarchy as a kernel sees it (bvh.cuh has its queries).
struct TriangleBvhView
{
    const float*         positions   = nullptr;  // 3 per vertex
    const std::uint32_t* faces       = nullptr;  // 3 per face
    const std::uint32_t* leaf_face   = nullptr;  // the face of each leaf (sorted position)
    const BvhBox*        leaf_box    = nullptr;
    const BvhBox*        node_box    = nullptr;  // internal nodes; 0 is the root
    const std::uint32_t* children    = nullptr;  // 2 per internal node
    std::uint32_t        num_faces   = 0;
};

struct ClosestHit
{
    Vec3          point;
    float         distance = 0;
    std::uint32_t face     = ~0u;
};

class TriangleBvh
{
   public:
    //! positions: 3 floats per vertex, faces: 3 ids per face, device memory,
    //! kept by the caller for the BVH's life. \throw InvalidInputError for
    //! no face.
    TriangleBvh(const float* positions, std::uint32_t num_vertices, const std::uint32_t* faces,
                std::uint32_t num_faces, cudaStream_t stream = 0);

    TriangleBvhView view() const;
    std::uint32_t   num_faces() const { return m_num_faces; }
    std::size_t     bytes() const;

    //! For each of n query points (3 floats each, device memory): the nearest
    //! point of the mesh, its distance and face (any output may be null).
    void closest_points(const float* queries, std::uint32_t n, float* points, float* distances,
                        std::uint32_t* faces, cudaStream_t stream = 0) const;

   private:
    const float*                m_positions = nullptr;
    const std::uint32_t*        m_faces     = nullptr;
    std::uint32_t               m_num_faces = 0;
    DeviceBuffer<std::uint32_t> m_leaf_face, m_children, m_parent, m_leaf_parent;
    DeviceBuffer<BvhBox>        m_leaf_box, m_node_box;
};

//! The closest points of host queries on a host mesh, through the GPU BVH
//! (uploads both; for tests and small jobs).
std::vector<ClosestHit> closest_points_on_mesh(const TriangleSoup& mesh,
                                               const std::vector<Vec3f>& queries);

}  // namespace rxmesh
