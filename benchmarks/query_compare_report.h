// Results of bench_query_compare and their output: Markdown tables on stdout
// and the JSON file that benchmarks/report.py reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rxmesh::bench::query_compare {

struct Record
{
    std::string mesh, order, system, op;
    std::uint64_t faces = 0, vertices = 0, edges = 0;
    double        ms = -1, gbps = 0;
    std::string   verified;  // "yes", "skipped", "n/a" or "MISMATCH"
    std::string   note;
    // capacity sweep only
    std::uint32_t capacity = 0, patches = 0, block = 0;  // 0: the default per op
    double        bytes_per_face = 0;
};

struct MemoryRecord
{
    std::string   mesh;
    std::uint64_t faces = 0;
    std::size_t   rxmesh = 0, pde = 0, csr = 0;
};

struct Results
{
    std::vector<Record>       records;      // every system, mesh, order and op
    std::vector<Record>       sweep;        // RXMesh per patch capacity
    std::vector<Record>       block_sweep;  // RXMesh per query block size
    std::vector<MemoryRecord> memory;       // sorted order only
};

//! The comparison, memory and (when swept) capacity / block size tables.
void print_tables(const Results& res);

//! Writes everything as JSON to `path`.
//! \throw Error when the file cannot be opened.
void write_json(const std::string& path,
                const std::string& gpu,
                double             copy_gbps,
                int                runs,
                std::uint32_t      capacity,
                const Results&     res);

}  // namespace rxmesh::bench::query_compare
