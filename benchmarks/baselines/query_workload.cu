// Shared pieces of the GPU query baselines: output offsets and the check
// against the reference topology.
#include "query_workload.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_transform.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::baselines {

namespace {

struct TimesK
{
    std::uint32_t k;
    __device__ std::uint32_t operator()(std::uint32_t i) const { return i * k; }
};

constexpr std::uint32_t kNone = ~0u;

using Pair = std::array<std::uint32_t, 2>;

Pair sorted_pair(Pair p)
{
    if (p[0] > p[1])
        std::swap(p[0], p[1]);
    return p;
}

std::string pair_str(const Pair& p)
{
    return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ")";
}

std::string row_str(std::vector<std::uint32_t> r)
{
    std::string s = "{";
    for (std::size_t i = 0; i < r.size(); ++i)
        s += (i ? ", " : "") + std::to_string(r[i]);
    return s + "}";
}

}  // namespace

namespace detail {

rxmesh::DeviceBuffer<std::uint32_t> fixed_offsets(std::uint32_t rows, std::uint32_t k,
                                                  cudaStream_t stream)
{
    rxmesh::DeviceBuffer<std::uint32_t> offsets(std::size_t(rows) + 1, stream);
    RXMESH_CHECK_CUDA(cub::DeviceTransform::Transform(thrust::counting_iterator<std::uint32_t>(0),
                                                      offsets.data(), std::size_t(rows) + 1,
                                                      TimesK{k}, stream));
    return offsets;
}

void check_output_rows(const char* who, rxmesh::Op op, const QueryOutput& out, std::uint32_t rows)
{
    if (out.rows() != rows)
        throw rxmesh::Error(std::string(who) + ": output for " + rxmesh::to_string(op) + " has " +
                            std::to_string(out.rows()) + " rows, expected " +
                            std::to_string(rows) + " (use allocate(op))");
}

void check_block_threads(const char* who, int block_threads)
{
    if (block_threads < 32 || block_threads > 1024 || block_threads % 32 != 0)
        throw rxmesh::Error(std::string(who) + ": " + std::to_string(block_threads) +
                            " threads per block (a multiple of 32 in [32, 1024])");
}

rxmesh::DeviceBuffer<std::uint32_t> offsets_from_counts(
    const rxmesh::DeviceBuffer<std::uint32_t>& counts, std::uint32_t& total,
    cudaStream_t stream)
{
    const std::size_t                   n = counts.size();
    rxmesh::DeviceBuffer<std::uint32_t> offsets(n, stream);
    if (n == 0) {
        total = 0;
        return offsets;
    }
    const std::uint32_t* in  = counts.data();
    std::uint32_t*       out = offsets.data();
    rxmesh::detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, static_cast<int>(n),
                                             stream);
    });
    total = rxmesh::read_back(out + (n - 1), stream);
    return offsets;
}

}  // namespace detail

bool verify_against_reference(const QueryOutput&                out,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              const EdgeVertices&               edges,
                              std::string&                      why)
{
    return verify_against_reference(out.offsets.to_host(), out.values.to_host(), op, ref,
                                    edges, why);
}

bool verify_against_reference(const std::vector<std::uint32_t>&  off,
                              const std::vector<std::uint32_t>&  val,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              const EdgeVertices&               edges,
                              std::string&                      why)
{
    using rxmesh::Op;
    const auto nv = ref.num_vertices;
    const auto ne = static_cast<std::uint32_t>(ref.ev.size());
    const auto nf = static_cast<std::uint32_t>(ref.fe.size());

    if (edges.size() != ne) {
        why = "system has " + std::to_string(edges.size()) + " edges, reference " +
              std::to_string(ne);
        return false;
    }
    const std::uint32_t rows = num_sources(op, nv, ne, nf);
    if (off.size() != std::size_t(rows) + 1) {
        why = "output has " + std::to_string(off.size()) + " offsets, expected " +
              std::to_string(rows + 1);
        return false;
    }
    if (off[0] != 0 || off[rows] > val.size()) {
        why = "bad offsets (first " + std::to_string(off[0]) + ", last " +
              std::to_string(off[rows]) + ", values " +
              std::to_string(val.size()) + ")";
        return false;
    }
    for (std::uint32_t s = 0; s < rows; ++s)
        if (off[s] > off[s + 1]) {
            why = "offsets decrease at row " + std::to_string(s);
            return false;
        }

    // reference edge id of a vertex pair, kNone when the pair is no edge
    auto ref_edge = [&](Pair p) -> std::uint32_t {
        p             = sorted_pair(p);
        const auto it = std::lower_bound(ref.ev.begin(), ref.ev.end(), p);
        return (it != ref.ev.end() && *it == p)
                   ? static_cast<std::uint32_t>(it - ref.ev.begin())
                   : kNone;
    };
    // reference edge id of a system edge id
    auto sys_to_ref = [&](std::uint32_t e) -> std::uint32_t {
        return e < ne ? ref_edge(edges[e]) : kNone;
    };

    std::vector<std::uint32_t> got, want;
    std::vector<char>          seen(op == Op::EV ? ne : 0, 0);
    for (std::uint32_t s = 0; s < rows; ++s) {
        got.assign(val.begin() + off[s], val.begin() + off[s + 1]);
        want.clear();
        const std::string where = std::string(rxmesh::to_string(op)) + " row " +
                                  std::to_string(s) + ": ";
        auto csr_row = [&](const rxmesh::reference::Csr& c, std::uint32_t r) {
            want.assign(c.indices.begin() + c.offsets[r], c.indices.begin() + c.offsets[r + 1]);
        };
        switch (op) {
            case Op::VV: csr_row(ref.vv, s); break;
            case Op::VF: csr_row(ref.vf, s); break;
            case Op::FF: csr_row(ref.ff, s); break;
            case Op::VE:
            case Op::FE:
                for (auto& e : got) {
                    const std::uint32_t r = sys_to_ref(e);
                    if (r == kNone) {
                        why = where + "edge " + std::to_string(e) + " is no edge of the mesh";
                        return false;
                    }
                    e = r;
                }
                if (op == Op::VE)
                    csr_row(ref.ve, s);
                else
                    for (int k = 0; k < 3; ++k)
                        want.push_back(ref.fe[s][k] >> 1);
                break;
            case Op::EF: {
                const std::uint32_t r = sys_to_ref(s);
                if (r == kNone) {
                    why = where + "system edge " + pair_str(edges[s]) + " is no edge of the mesh";
                    return false;
                }
                csr_row(ref.ef, r);
                break;
            }
            case Op::EV: {
                const Pair          p = sorted_pair(edges[s]);
                const std::uint32_t r = ref_edge(p);
                if (r == kNone || seen[r]) {
                    why = where + "system edge " + pair_str(p) +
                          (r == kNone ? " is no edge of the mesh" : " appears twice");
                    return false;
                }
                seen[r] = 1;
                want    = {p[0], p[1]};
                break;
            }
            case Op::FV: {
                // face (v0, v1, v2) from its edges (v0, v1) and (v1, v2)
                auto from_to = [&](std::uint32_t code) -> Pair {
                    const Pair& e = ref.ev[code >> 1];
                    return (code & 1u) ? Pair{e[1], e[0]} : e;
                };
                const Pair a = from_to(ref.fe[s][0]), b = from_to(ref.fe[s][1]);
                want         = {a[0], a[1], b[1]};
                bool ok      = got.size() == 3;
                if (ok) {
                    ok = false;
                    for (int r = 0; r < 3 && !ok; ++r)
                        ok = got[0] == want[r] && got[1] == want[(r + 1) % 3] &&
                             got[2] == want[(r + 2) % 3];
                }
                if (!ok) {
                    why = where + "got " + row_str(got) + ", expected a rotation of " +
                          row_str(want);
                    return false;
                }
                continue;
            }
        }
        if (op != Op::FF && got.size() != want.size()) {
            why = where + "got " + std::to_string(got.size()) + " entries " + row_str(got) +
                  ", expected " + std::to_string(want.size()) + " " + row_str(want);
            return false;
        }
        std::sort(got.begin(), got.end());
        got.erase(std::unique(got.begin(), got.end()), got.end());
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        if (got != want) {
            why = where + "got " + row_str(got) + ", expected " + row_str(want) +
                  (op == Op::VE || op == Op::FE || op == Op::EF ? " (reference ids)" : "");
            return false;
        }
    }
    why.clear();
    return true;
}

bool verify_against_reference(const QueryOutput&                out,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              std::string&                      why)
{
    return verify_against_reference(out, op, ref, ref.ev, why);
}

}  // namespace rxmesh::baselines
