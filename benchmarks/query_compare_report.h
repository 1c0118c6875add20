// Results of bench_query_compare and their output: Markdown tables on stdout
// and the JSON file that benchmarks/report.py reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/rxmesh.h"

namespace rxmesh::bench::query_compare {

struct Record
{
    std::string   mesh, order, system, op;
    std::uint64_t faces = 0, vertices = 0, edges = 0;
    double        ms = -1, gbps = 0;
    std::string   verified;  // against the CPU reference: "yes", "skipped", "n/a" or "MISMATCH"
    std::string   checksum, checksum_vs;  // hex; "anchor", "= CSR" or "MISMATCH vs CSR"
    std::string   note;
    std::uint32_t block = 0;  // the best of the swept block sizes (0: not swept)
    std::vector<std::pair<int, double>> block_ms;  // every block size timed
    // at the best block: the host's enqueue time per call and the GPU time per
    // call queued back to back (bench::launch_cost): where a short query's
    // time goes
    double host_us = 0, pipelined_ms = 0;
    // capacity sweep only
    std::uint32_t capacity = 0, patches = 0;
    double        bytes_per_face = 0;
};

struct MemoryRecord
{
    std::string          mesh;
    std::uint64_t        faces        = 0;
    std::size_t          rxmesh_store = 0;     // the patch store alone (the paper's measure)
    rxmesh::MemoryReport rxmesh;               // every device byte an RXMesh holds
    std::size_t          rxmesh_geometry = 0;  // of which positions (and their copy)
    std::size_t          pde = 0, csr = 0;
};

struct Results
{
    std::vector<Record>       records;              // every system, mesh, order and op
    std::vector<Record>       sweep;                // RXMesh per patch capacity
    std::vector<MemoryRecord> memory;               // sorted order only
    double                    launch_floor_ms = 0;  // an empty kernel, timed as the queries
};

//! The comparison, memory and (when swept) capacity tables.
void print_tables(const Results& res);

//! Writes everything as JSON to `path`.
//! \throw Error when the file cannot be opened.
void write_json(const std::string& path, const std::string& gpu, double copy_gbps, int runs,
                std::uint32_t capacity, const Results& res);

}  // namespace rxmesh::bench::query_compare
