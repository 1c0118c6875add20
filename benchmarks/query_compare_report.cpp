// Markdown and JSON output of bench_query_compare (see query_compare_report.h).
#include "query_compare_report.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "rxmesh/core/error.h"

namespace rxmesh::bench::query_compare {
namespace {

std::string json_escape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

void print_query_table(const std::vector<Record>& records)
{
    std::map<std::string, double> ms;  // key: mesh|order|system|op
    for (const Record& r : records)
        ms[r.mesh + "|" + r.order + "|" + r.system + "|" + r.op] = r.ms;
    auto get = [&](const Record& r, const char* system) {
        const auto it = ms.find(r.mesh + "|" + r.order + "|" + system + "|" + r.op);
        return it == ms.end() ? -1.0 : it->second;
    };
    std::printf("\n| mesh | order | op | RXMesh ms | PDE ms | CSR ms | vs PDE | vs CSR | RXMesh "
                "output GB/s | verified |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Record& r : records) {
        if (r.system != "RXMesh")
            continue;
        const double pde = get(r, "PDE"), csr = get(r, "CSR");
        char         vs_pde[32] = "n/a", pde_ms[32] = "n/a";
        if (pde > 0) {
            std::snprintf(vs_pde, sizeof vs_pde, "%.2fx", pde / r.ms);
            std::snprintf(pde_ms, sizeof pde_ms, "%.3f", pde);
        }
        std::printf("| %s | %s | %s | %.3f | %s | %.3f | %s | %.2fx | %.0f | %s |\n",
                    r.mesh.c_str(), r.order.c_str(), r.op.c_str(), r.ms, pde_ms, csr, vs_pde,
                    csr / r.ms, r.gbps, r.verified.c_str());
    }
}

void print_memory_table(const std::vector<MemoryRecord>& memory)
{
    std::printf("\n| mesh | faces | RXMesh store MB | PDE MB | CSR (8 relations) MB | RXMesh / "
                "CSR |\n|---|---|---|---|---|---|\n");
    for (const auto& m : memory)
        std::printf("| %s | %llu | %.1f | %.1f | %.1f | %.2f |\n", m.mesh.c_str(),
                    (unsigned long long)m.faces, m.rxmesh / 1e6, m.pde / 1e6, m.csr / 1e6,
                    double(m.rxmesh) / std::max<std::size_t>(1, m.csr));
}

void print_sweep_tables(const std::vector<Record>& sweep, const std::vector<Record>& block_sweep)
{
    std::printf("\n| capacity | patches | store bytes/face | op | ms |\n|---|---|---|---|---|\n");
    for (const Record& r : sweep)
        std::printf("| %u | %u | %.1f | %s | %.3f |\n", r.capacity, r.patches, r.bytes_per_face,
                    r.op.c_str(), r.ms);
    std::printf("\n| block threads | op | ms |\n|---|---|---|\n");
    for (const Record& r : block_sweep)
        std::printf("| %u | %s | %.3f |\n", r.block, r.op.c_str(), r.ms);
}

void write_records(FILE* f, const std::vector<Record>& rs)
{
    for (std::size_t i = 0; i < rs.size(); ++i) {
        const Record& r = rs[i];
        std::fprintf(f,
                     "    {\"mesh\": \"%s\", \"order\": \"%s\", \"system\": \"%s\", "
                     "\"op\": \"%s\", \"faces\": %llu, \"vertices\": %llu, \"edges\": "
                     "%llu, \"ms\": %s, \"output_gbps\": %.1f, \"verified\": \"%s\", "
                     "\"note\": \"%s\", \"capacity\": %u, \"patches\": %u, "
                     "\"block\": %u, \"store_bytes_per_face\": %.2f}%s\n",
                     json_escape(r.mesh).c_str(), r.order.c_str(), r.system.c_str(),
                     r.op.c_str(), (unsigned long long)r.faces, (unsigned long long)r.vertices,
                     (unsigned long long)r.edges,
                     r.ms < 0 ? "null" : std::to_string(r.ms).c_str(), r.gbps,
                     r.verified.c_str(), json_escape(r.note).c_str(), r.capacity, r.patches,
                     r.block, r.bytes_per_face, i + 1 < rs.size() ? "," : "");
    }
}

void write_memory(FILE* f, const std::vector<MemoryRecord>& memory)
{
    for (std::size_t i = 0; i < memory.size(); ++i)
        std::fprintf(f,
                     "    {\"mesh\": \"%s\", \"faces\": %llu, \"rxmesh_bytes\": %zu, "
                     "\"pde_bytes\": %zu, \"csr_bytes\": %zu}%s\n",
                     json_escape(memory[i].mesh).c_str(), (unsigned long long)memory[i].faces,
                     memory[i].rxmesh, memory[i].pde, memory[i].csr,
                     i + 1 < memory.size() ? "," : "");
}

}  // namespace

void print_tables(const Results& res)
{
    print_query_table(res.records);
    print_memory_table(res.memory);
    if (!res.sweep.empty())
        print_sweep_tables(res.sweep, res.block_sweep);
}

void write_json(const std::string& path,
                const std::string& gpu,
                double             copy_gbps,
                int                runs,
                std::uint32_t      capacity,
                const Results&     res)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
        throw Error("bench_query_compare: cannot write " + path);
    std::fprintf(f, "{\n  \"gpu\": \"%s\",\n  \"copy_gbps\": %.1f,\n  \"runs\": %d,\n"
                    "  \"capacity\": %u,\n  \"results\": [\n",
                 json_escape(gpu).c_str(), copy_gbps, runs, capacity);
    write_records(f, res.records);
    std::fprintf(f, "  ],\n  \"memory\": [\n");
    write_memory(f, res.memory);
    std::fprintf(f, "  ],\n  \"capacity_sweep\": [\n");
    write_records(f, res.sweep);
    std::fprintf(f, "  ],\n  \"block_sweep\": [\n");
    write_records(f, res.block_sweep);
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
}

}  // namespace rxmesh::bench::query_compare
