#include "metis_partition.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>

#ifdef RXMESH_HAVE_METIS
#include <metis.h>
#endif

namespace rxmesh::bench {

namespace {

//! Empty string when `offsets`/`neighbours` form a valid CSR over F vertices.
std::string check_csr(const std::vector<std::uint32_t>& offsets,
                      const std::vector<std::uint32_t>& neighbours)
{
    if (offsets.empty())
        return "invalid CSR: offsets is empty (needs F+1 entries)";
    if (offsets.front() != 0 || offsets.back() != neighbours.size())
        return "invalid CSR: offsets must start at 0 and end at neighbours.size()";
    const std::size_t nf = offsets.size() - 1;
    for (std::size_t f = 0; f < nf; ++f)
        if (offsets[f] > offsets[f + 1])
            return "invalid CSR: offsets not monotone at face " + std::to_string(f);
    for (std::uint32_t n : neighbours)
        if (n >= nf)
            return "invalid CSR: neighbour id " + std::to_string(n) + " >= F";
    return {};
}

//! A result for `parts` whose note is the CSR's error (empty when valid).
PartitionQuality checked_input(const std::vector<std::uint32_t>& offsets,
                               const std::vector<std::uint32_t>& neighbours, std::uint32_t parts)
{
    PartitionQuality q;
    q.parts = parts;
    q.note  = check_csr(offsets, neighbours);
    return q;
}

#ifdef RXMESH_HAVE_METIS
//! Empty string when the graph is symmetric (with multiplicities) and has no
//! self loops, as METIS requires.
std::string check_symmetric(const std::vector<std::uint32_t>& offsets,
                            const std::vector<std::uint32_t>& neighbours)
{
    const std::size_t          nf = offsets.size() - 1;
    std::vector<std::uint32_t> sorted(neighbours);
    for (std::size_t f = 0; f < nf; ++f)
        std::sort(sorted.begin() + offsets[f], sorted.begin() + offsets[f + 1]);
    auto count_in_row = [&](std::size_t row, std::uint32_t v) {
        auto r = std::equal_range(sorted.begin() + offsets[row],
                                  sorted.begin() + offsets[row + 1], v);
        return r.second - r.first;
    };
    for (std::size_t u = 0; u < nf; ++u)
        for (std::uint32_t i = offsets[u]; i < offsets[u + 1]; ++i) {
            const std::uint32_t v = sorted[i];
            if (v == u)
                return "graph has a self loop at face " + std::to_string(u);
            if (count_in_row(v, static_cast<std::uint32_t>(u)) != count_in_row(u, v))
                return "graph is not symmetric: edge " + std::to_string(u) + "->" +
                       std::to_string(v);
        }
    return {};
}

void append_note(std::string& note, const std::string& more)
{
    if (more.empty())
        return;
    if (!note.empty())
        note += "; ";
    note += more;
}
#endif

}  // namespace

PartitionQuality assess_partition(const std::vector<std::uint32_t>& offsets,
                                  const std::vector<std::uint32_t>& neighbours,
                                  const std::vector<std::uint32_t>& part_of,
                                  std::uint32_t                     parts)
{
    PartitionQuality q = checked_input(offsets, neighbours, parts);
    if (!q.note.empty()) return q;
    const std::size_t nf = offsets.size() - 1;
    if (part_of.size() != nf) {
        q.note = "part_of has " + std::to_string(part_of.size()) + " entries, expected F = " +
                 std::to_string(nf);
        return q;
    }
    if (parts == 0) {
        q.note = nf == 0 ? "no faces and no parts" : "parts == 0 with faces present";
        q.available = nf == 0;
        return q;
    }
    std::vector<std::uint32_t> size(parts, 0);
    for (std::size_t f = 0; f < nf; ++f) {
        if (part_of[f] >= parts) {
            q.note = "part_of[" + std::to_string(f) + "] = " + std::to_string(part_of[f]) +
                     " >= parts";
            return q;
        }
        ++size[part_of[f]];
    }
    q.largest  = *std::max_element(size.begin(), size.end());
    q.smallest = *std::min_element(size.begin(), size.end());

    // Components of each part: BFS from every unvisited face, never leaving
    // the part of the seed.
    std::vector<std::uint32_t> components(parts, 0);
    std::vector<char>          visited(nf, 0);
    std::vector<std::uint32_t> queue;
    queue.reserve(nf);
    for (std::size_t seed = 0; seed < nf; ++seed) {
        if (visited[seed])
            continue;
        const std::uint32_t p = part_of[seed];
        ++components[p];
        queue.clear();
        queue.push_back(static_cast<std::uint32_t>(seed));
        visited[seed] = 1;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::uint32_t f = queue[head];
            for (std::uint32_t i = offsets[f]; i < offsets[f + 1]; ++i) {
                const std::uint32_t g = neighbours[i];
                if (!visited[g] && part_of[g] == p) {
                    visited[g] = 1;
                    queue.push_back(g);
                }
            }
        }
    }
    std::uint32_t empty = 0;
    for (std::uint32_t p = 0; p < parts; ++p) {
        q.disconnected_parts += components[p] > 1 ? 1 : 0;
        empty += components[p] == 0 ? 1 : 0;
    }
    if (empty > 0)
        q.note = std::to_string(empty) + " empty part(s)";
    q.available = true;
    return q;
}

PartitionQuality metis_kway(const std::vector<std::uint32_t>& offsets,
                            const std::vector<std::uint32_t>& neighbours,
                            std::uint32_t                     parts,
                            std::vector<std::uint32_t>*       part_out)
{
#ifndef RXMESH_HAVE_METIS
    (void)part_out;
    (void)offsets;
    (void)neighbours;
    PartitionQuality q;
    q.parts = parts;
    q.note  = "METIS not found at build time";
    return q;
#else
    PartitionQuality q = checked_input(offsets, neighbours, parts);
    if (!q.note.empty()) return q;
    const std::size_t nf = offsets.size() - 1;
    if (parts == 0) {
        q.note = "parts must be at least 1";
        return q;
    }
    if (nf == 0) {
        q.note = "empty graph";
        return q;
    }
    // Trivial cases, which METIS handles badly (nparts == 1) or not at all.
    if (parts == 1) {
        q = assess_partition(offsets, neighbours, std::vector<std::uint32_t>(nf, 0), 1);
        append_note(q.note, "trivial partition (1 part), METIS not called");
        return q;
    }
    if (parts > nf) {
        std::vector<std::uint32_t> part_of(nf);
        for (std::size_t f = 0; f < nf; ++f)
            part_of[f] = static_cast<std::uint32_t>(f);
        q = assess_partition(offsets, neighbours, part_of, static_cast<std::uint32_t>(nf));
        append_note(q.note, "parts " + std::to_string(parts) + " > F = " + std::to_string(nf) +
                                ": one face per part, METIS not called");
        return q;
    }
    constexpr auto idx_max = static_cast<std::uint64_t>(std::numeric_limits<idx_t>::max());
    if (nf > idx_max || neighbours.size() > idx_max) {
        q.note = "graph too large for METIS idx_t (IDXTYPEWIDTH " +
                 std::to_string(IDXTYPEWIDTH) + ")";
        return q;
    }
    if (std::string err = check_symmetric(offsets, neighbours); !err.empty()) {
        q.note = "METIS needs a symmetric graph without self loops: " + err;
        return q;
    }

    std::vector<idx_t> xadj(offsets.begin(), offsets.end());
    std::vector<idx_t> adjncy(neighbours.begin(), neighbours.end());
    std::vector<idx_t> part(nf, 0);
    idx_t              nvtxs  = static_cast<idx_t>(nf);
    idx_t              ncon   = 1;
    idx_t              nparts = static_cast<idx_t>(parts);
    idx_t              edgecut = 0;
    idx_t              options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;  // the default, made explicit

    const auto t0 = std::chrono::steady_clock::now();
    const int  rc = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(),
                                       adjncy.empty() ? nullptr : adjncy.data(), nullptr,
                                       nullptr, nullptr, &nparts, nullptr, nullptr, options,
                                       &edgecut, part.data());
    const auto   t1 = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();

    if (rc != METIS_OK) {
        q.note = std::string("METIS_PartGraphKway failed: ") +
                 (rc == METIS_ERROR_INPUT    ? "METIS_ERROR_INPUT"
                  : rc == METIS_ERROR_MEMORY ? "METIS_ERROR_MEMORY"
                  : rc == METIS_ERROR        ? "METIS_ERROR"
                                             : "code " + std::to_string(rc));
        q.ms = ms;
        return q;
    }
    std::vector<std::uint32_t> part_of(part.begin(), part.end());
    q    = assess_partition(offsets, neighbours, part_of, parts);
    q.ms = ms;
    if (part_out)
        *part_out = std::move(part_of);
    return q;
#endif
}

bool metis_node_nd(const std::vector<std::uint32_t>& offsets,
                   const std::vector<std::uint32_t>& neighbours,
                   std::vector<std::uint32_t>& new_to_old, double& ms, std::string& why)
{
    ms  = 0;
    why = check_csr(offsets, neighbours);
    if (!why.empty()) return false;
#ifndef RXMESH_HAVE_METIS
    why = "METIS not found at build time";
    return false;
#else
    idx_t              n = idx_t(offsets.size() - 1);
    std::vector<idx_t> xadj(offsets.begin(), offsets.end()),
        adjncy(neighbours.begin(), neighbours.end()), perm(n), iperm(n);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    const auto t0 = std::chrono::steady_clock::now();
    const int  rc = n == 0 ? METIS_OK
                           : METIS_NodeND(&n, xadj.data(), adjncy.data(), nullptr, options,
                                          perm.data(), iperm.data());
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (rc != METIS_OK) {
        why = "METIS_NodeND returned " + std::to_string(rc);
        return false;
    }
    new_to_old.assign(perm.begin(), perm.end());  // METIS: row i of A' is row perm[i] of A
    return true;
#endif
}

}  // namespace rxmesh::bench
