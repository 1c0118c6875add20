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
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

//! "reference + checksum", "checksum" or "MISMATCH" over the systems' records of one row.
std::string row_check(const std::vector<const Record*>& systems)
{
    bool reference = true;
    for (const Record* r : systems) {
        if (r->verified == "MISMATCH" || r->checksum_vs.rfind("MISMATCH", 0) == 0)
            return "MISMATCH";
        reference = reference && (r->verified == "yes" || r->verified == "n/a");
    }
    return reference ? "reference + checksum" : "checksum";
}

void print_query_table(const std::vector<Record>& records)
{
    std::map<std::string, const Record*> by_key;  // key: mesh|order|system|op
    for (const Record& r : records)
        by_key[r.mesh + "|" + r.order + "|" + r.system + "|" + r.op] = &r;
    auto get = [&](const Record& r, const char* system) -> const Record* {
        const auto it = by_key.find(r.mesh + "|" + r.order + "|" + system + "|" + r.op);
        return it == by_key.end() || it->second->ms <= 0 ? nullptr : it->second;
    };
    auto cell = [](const Record* r) {
        char buf[48] = "n/a";
        if (r) std::snprintf(buf, sizeof buf, "%.3f (%u)", r->ms, r->block);
        return std::string(buf);
    };
    std::printf(
        "\nEach system at its best block size (threads in parentheses) of 64, 128, 256 "
        "and 512.\n\n| mesh | order | op | RXMesh ms | PDE ms | CSR ms | vs PDE | vs "
        "CSR | RXMesh output GB/s | verified |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Record& r : records) {
        if (r.system != "RXMesh") continue;
        const Record *             pde = get(r, "PDE"), *csr = get(r, "CSR");
        std::vector<const Record*> systems{&r};
        char                       vs_pde[32] = "n/a", vs_csr[32] = "n/a";
        if (pde) {
            std::snprintf(vs_pde, sizeof vs_pde, "%.2fx", pde->ms / r.ms);
            systems.push_back(pde);
        }
        if (csr) {
            std::snprintf(vs_csr, sizeof vs_csr, "%.2fx", csr->ms / r.ms);
            systems.push_back(csr);
        }
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n", r.mesh.c_str(),
                    r.order.c_str(), r.op.c_str(), cell(&r).c_str(), cell(pde).c_str(),
                    cell(csr).c_str(), vs_pde, vs_csr, r.gbps, row_check(systems).c_str());
    }
}

//! Sorted meshes under 1M faces: one query's time, the GPU time per query
//! back to back, and the host's enqueue time, per system.
void print_latency_table(const std::vector<Record>& records, double floor_ms)
{
    std::printf(
        "\nWhere a small query's time goes (sorted, < 1M faces; an empty kernel: %.4f ms). "
        "ms: one query from an idle GPU, as timed above; back to back: GPU ms per query "
        "with 200 queued; host: microseconds to enqueue one.\n\n| mesh | op | system | "
        "ms | back to back ms | host us |\n|---|---|---|---|---|---|\n",
        floor_ms);
    for (const Record& r : records)
        if (r.order == "sorted" && r.faces < 1'000'000 && r.ms > 0 && r.pipelined_ms > 0)
            std::printf("| %s | %s | %s | %.4f | %.4f | %.2f |\n", r.mesh.c_str(), r.op.c_str(),
                        r.system.c_str(), r.ms, r.pipelined_ms, r.host_us);
}

void print_memory_table(const std::vector<MemoryRecord>& memory)
{
    std::printf(
        "\nRXMesh total: every device byte an RXMesh holds after construction "
        "(RXMesh::memory()); without geometry: less positions(), the "
        "\"position\" attribute, which no baseline stores; the patch store is the part "
        "the paper counts.\n\n"
        "| mesh | faces | RXMesh total MB | without geometry MB | store MB | PDE MB | CSR "
        "(8 relations) MB | total / CSR | without geometry / CSR | store / CSR "
        "|\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& m : memory) {
        const double csr   = double(std::max<std::size_t>(1, m.csr));
        const double total = double(m.rxmesh.total());
        const double conn  = total - double(m.rxmesh_geometry);
        std::printf("| %s | %llu | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f |\n",
                    m.mesh.c_str(), (unsigned long long)m.faces, total / 1e6, conn / 1e6,
                    m.rxmesh_store / 1e6, m.pde / 1e6, m.csr / 1e6, total / csr, conn / csr,
                    m.rxmesh_store / csr);
    }
}

void print_sweep_table(const std::vector<Record>& sweep)
{
    std::printf("\n| capacity | patches | store bytes/face | op | ms |\n|---|---|---|---|---|\n");
    for (const Record& r : sweep)
        std::printf("| %u | %u | %.1f | %s | %.3f |\n", r.capacity, r.patches, r.bytes_per_face,
                    r.op.c_str(), r.ms);
}

std::string block_ms_json(const Record& r)
{
    std::string out = "{";
    for (std::size_t i = 0; i < r.block_ms.size(); ++i)
        out += (i ? ", \"" : "\"") + std::to_string(r.block_ms[i].first) +
               "\": " + std::to_string(r.block_ms[i].second);
    return out + "}";
}

void write_records(FILE* f, const std::vector<Record>& rs)
{
    for (std::size_t i = 0; i < rs.size(); ++i) {
        const Record& r = rs[i];
        std::fprintf(f,
                     "    {\"mesh\": \"%s\", \"order\": \"%s\", \"system\": \"%s\", "
                     "\"op\": \"%s\", \"faces\": %llu, \"vertices\": %llu, \"edges\": "
                     "%llu, \"ms\": %s, \"output_gbps\": %.1f, \"verified\": \"%s\", "
                     "\"checksum\": \"%s\", \"checksum_vs\": \"%s\", "
                     "\"note\": \"%s\", \"capacity\": %u, \"patches\": %u, "
                     "\"block\": %u, \"block_ms\": %s, \"host_us\": %.2f, "
                     "\"pipelined_ms\": %.5f, \"store_bytes_per_face\": %.2f}%s\n",
                     json_escape(r.mesh).c_str(), r.order.c_str(), r.system.c_str(), r.op.c_str(),
                     (unsigned long long)r.faces, (unsigned long long)r.vertices,
                     (unsigned long long)r.edges, r.ms < 0 ? "null" : std::to_string(r.ms).c_str(),
                     r.gbps, r.verified.c_str(), r.checksum.c_str(), r.checksum_vs.c_str(),
                     json_escape(r.note).c_str(), r.capacity, r.patches, r.block,
                     block_ms_json(r).c_str(), r.host_us, r.pipelined_ms, r.bytes_per_face,
                     i + 1 < rs.size() ? "," : "");
    }
}

void write_memory(FILE* f, const std::vector<MemoryRecord>& memory)
{
    for (std::size_t i = 0; i < memory.size(); ++i)
        std::fprintf(f,
                     "    {\"mesh\": \"%s\", \"faces\": %llu, \"rxmesh_bytes\": %zu, "
                     "\"rxmesh_store_bytes\": %zu, \"rxmesh_geometry_bytes\": %zu, "
                     "\"rxmesh_memory\": %s, "
                     "\"pde_bytes\": %zu, \"csr_bytes\": %zu}%s\n",
                     json_escape(memory[i].mesh).c_str(), (unsigned long long)memory[i].faces,
                     memory[i].rxmesh.total(), memory[i].rxmesh_store, memory[i].rxmesh_geometry,
                     memory[i].rxmesh.to_json().c_str(), memory[i].pde, memory[i].csr,
                     i + 1 < memory.size() ? "," : "");
}

}  // namespace

void print_tables(const Results& res)
{
    print_query_table(res.records);
    print_latency_table(res.records, res.launch_floor_ms);
    print_memory_table(res.memory);
    if (!res.sweep.empty()) print_sweep_table(res.sweep);
}

void write_json(const std::string& path, const std::string& gpu, double copy_gbps, int runs,
                std::uint32_t capacity, const Results& res)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw Error("bench_query_compare: cannot write " + path);
    std::fprintf(f,
                 "{\n  \"gpu\": \"%s\",\n  \"copy_gbps\": %.1f,\n  \"runs\": %d,\n"
                 "  \"capacity\": %u,\n  \"launch_floor_ms\": %.5f,\n  \"results\": [\n",
                 json_escape(gpu).c_str(), copy_gbps, runs, capacity, res.launch_floor_ms);
    write_records(f, res.records);
    std::fprintf(f, "  ],\n  \"memory\": [\n");
    write_memory(f, res.memory);
    std::fprintf(f, "  ],\n  \"capacity_sweep\": [\n");
    write_records(f, res.sweep);
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
}

}  // namespace rxmesh::bench::query_compare
