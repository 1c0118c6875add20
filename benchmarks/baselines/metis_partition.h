// METIS k-way partitioning baseline for the patch benchmarks, and the quality
// measures shared with RXMesh's own patches. Host C++17 only; METIS is used
// when found at build time (RXMESH_HAVE_METIS), see baselines/CMakeLists.txt.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rxmesh::bench {

struct PartitionQuality
{
    std::uint32_t parts              = 0;  //!< number of parts asked for (after clamping)
    std::uint32_t largest            = 0;  //!< faces in the largest part
    std::uint32_t smallest           = 0;  //!< faces in the smallest part (0 if a part is empty)
    std::uint32_t disconnected_parts = 0;  //!< parts whose faces are not connected in the face graph
    double        ms                 = 0;  //!< wall time of the METIS call only (0 when not called)
    bool          available          = false;  //!< true when the fields above are valid
    std::string   note;  //!< why not available, or remarks (trivial partition, empty parts, ...)
};

//! Partitions the face graph given as CSR (offsets F+1, neighbour face ids)
//! into `parts` parts with METIS_PartGraphKway (default options, objective
//! edge cut), timing only the METIS call (wall clock, std::chrono). Computes
//! largest/smallest part and how many parts are not connected in the face
//! graph (BFS restricted to the part). The graph must be symmetric without
//! self loops (checked, outside the timing). parts == 1 gives the trivial
//! partition and parts > F one face per part (F parts), both without calling
//! METIS (ms = 0, said in `note`). If METIS is not compiled in, returns
//! available=false and note="METIS not found at build time"; a METIS error
//! or an invalid input also gives available=false with the reason in `note`.
//! `part_out`, when given, receives METIS's part per face (only when METIS
//! ran and succeeded).
PartitionQuality metis_kway(const std::vector<std::uint32_t>& offsets,
                            const std::vector<std::uint32_t>& neighbours,
                            std::uint32_t                     parts,
                            std::vector<std::uint32_t>*       part_out = nullptr);

//! Same quality measures for a given assignment (used for RXMesh's own
//! patches): part_of[f] < parts for each of the F faces. ms stays 0.
PartitionQuality assess_partition(const std::vector<std::uint32_t>& offsets,
                                  const std::vector<std::uint32_t>& neighbours,
                                  const std::vector<std::uint32_t>& part_of,
                                  std::uint32_t                     parts);

//! METIS_NodeND's fill-reducing order of a symmetric graph (CSR without
//! self loops: offsets n+1, neighbour ids), as new_to_old (row k of the
//! permuted matrix is row new_to_old[k]); `ms`: the METIS call alone.
//! Returns false, with `why`, when METIS is not compiled in or fails.
bool metis_node_nd(const std::vector<std::uint32_t>& offsets,
                   const std::vector<std::uint32_t>& neighbours,
                   std::vector<std::uint32_t>& new_to_old, double& ms, std::string& why);

}  // namespace rxmesh::bench
