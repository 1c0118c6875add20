// Stages of RXMesh::kring_halo (kring_halo.cu, kring_halo_rows.cu): internal.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/kring_halo.h"

namespace rxmesh::detail {

//! One-rings in global ids (CSR).
struct GlobalRows
{
    const std::uint32_t* offsets;  // V + 1
    const std::uint32_t* indices;
};

//! Halo level 1 as sorted unique keys (patch << 32 | vertex). `h` needs
//! vertex_offsets and bucket_patch only.
DeviceBuffer<unsigned long long> halo_level_one(const KRingHaloView& h, const GlobalRows& g,
                                                std::uint32_t num_vertices, cudaStream_t stream);
//! Level d from levels d - 1 (`prev`) and d - 2 (`older`; empty for d = 2).
DeviceBuffer<unsigned long long> halo_next_level(const KRingHaloView& h, const GlobalRows& g,
                                                 const DeviceBuffer<unsigned long long>& prev,
                                                 const DeviceBuffer<unsigned long long>& older,
                                                 cudaStream_t stream);
//! Fills halo.halo_offsets, halo_vertices, row_first, row_offsets, entries
//! and max_ext from the levels (halo.bucket_patch is set already).
void assemble_halo(KRingHalo& halo, const PatchStoreView& store, std::uint32_t num_patches,
                   const GlobalRows& g,
                   const std::vector<DeviceBuffer<unsigned long long>>& levels,
                   cudaStream_t stream);

}  // namespace rxmesh::detail
