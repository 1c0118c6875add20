#include "rxmesh/reference/patcher.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "rxmesh/io/bounding_box.h"
#include "rxmesh/patch/curve_key.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {
namespace {

constexpr std::uint32_t kNone = ~0u;

//! Row f of the face adjacency, for range-for.
struct Neighbours
{
    const std::uint32_t *first, *last;
    const std::uint32_t* begin() const { return first; }
    const std::uint32_t* end() const { return last; }
    std::size_t          size() const { return last - first; }
};

Neighbours neighbours(const Csr& ff, std::uint32_t f)
{
    const std::uint32_t* rows = ff.indices.data();
    return {rows + ff.offsets[f], rows + ff.offsets[f + 1]};
}

//! Faces sorted by Hilbert key, ties by face id.
std::vector<std::uint32_t> curve_order(const std::vector<float>&    positions,
                                       const std::vector<Triangle>& faces)
{
    float lo[3], hi[3];
    bounding_box(positions.data(), positions.size() / 3, lo, hi);
    const CurveFrame           frame = make_curve_frame(lo, hi);
    std::vector<std::uint64_t> key(faces.size());
    for (std::size_t f = 0; f < faces.size(); ++f)
        key[f] = face_curve_key(&positions[3 * faces[f][0]], &positions[3 * faces[f][1]],
                                &positions[3 * faces[f][2]], frame);
    std::vector<std::uint32_t> order(faces.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key[a] < key[b]; });
    return order;
}

//! Level-by-level breadth-first growth: seed j gets label first_id + j; each
//! level, an unlabelled face takes the smallest label among its neighbours
//! labelled in the level before (of its own group, when there are groups).
void grow(const Csr& g, const std::vector<std::uint32_t>& seeds, std::uint32_t first_id,
          const std::vector<std::uint32_t>* group, std::vector<std::uint32_t>& label)
{
    std::vector<std::uint32_t> frontier = seeds, next, best(label.size(), kNone);
    for (std::uint32_t j = 0; j < seeds.size(); ++j) label[seeds[j]] = first_id + j;
    while (!frontier.empty()) {
        next.clear();
        for (std::uint32_t u : frontier)
            for (std::uint32_t v : neighbours(g, u)) {
                if (label[v] != kNone || (group && (*group)[v] != (*group)[u])) continue;
                if (best[v] == kNone) next.push_back(v);
                best[v] = std::min(best[v], label[u]);
            }
        for (std::uint32_t v : next) label[v] = best[v];
        frontier.swap(next);
    }
}

struct State
{
    Csr                        g;            // face adjacency (reference topology)
    std::vector<std::uint32_t> order, rank;  // face at a curve position, and back
    std::vector<std::uint32_t> label;        // patch id per face
    std::uint32_t              K       = 0;  // ids used so far
    std::uint32_t              spacing = 1;
};

//! Chunk middles along the curve, plus the first face on the curve of each
//! component that has none; in curve order.
std::vector<std::uint32_t> initial_seeds(State& s, std::uint32_t& num_components)
{
    const std::uint32_t        n = static_cast<std::uint32_t>(s.order.size());
    std::vector<std::uint32_t> component(n, kNone), first_of;  // first on the curve
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t start = s.order[i];
        if (component[start] != kNone) continue;
        const std::uint32_t c = static_cast<std::uint32_t>(first_of.size());
        first_of.push_back(start);
        std::vector<std::uint32_t> stack{start};
        component[start] = c;
        while (!stack.empty()) {
            const std::uint32_t f = stack.back();
            stack.pop_back();
            for (std::uint32_t h : neighbours(s.g, f))
                if (component[h] == kNone) {
                    component[h] = c;
                    stack.push_back(h);
                }
        }
    }
    num_components = static_cast<std::uint32_t>(first_of.size());
    std::vector<char>   seeded(first_of.size(), 0), is_seed(n, 0);
    const std::uint64_t chunks = (n + s.spacing - 1) / s.spacing;
    for (std::uint64_t c = 0; c < chunks; ++c) {
        const std::uint64_t i         = (c * n / chunks + (c + 1) * n / chunks) / 2;
        is_seed[i]                    = 1;
        seeded[component[s.order[i]]] = 1;
    }
    for (std::uint32_t c = 0; c < first_of.size(); ++c)
        if (!seeded[c]) is_seed[s.rank[first_of[c]]] = 1;
    std::vector<std::uint32_t> seeds;
    for (std::uint32_t i = 0; i < n; ++i)
        if (is_seed[i]) seeds.push_back(s.order[i]);
    return seeds;
}

//! Per patch, the face farthest from the patch boundary (first on the curve
//! among equals), in curve order.
std::vector<std::uint32_t> central_faces(const State& s)
{
    const std::uint32_t        n = static_cast<std::uint32_t>(s.order.size());
    std::vector<std::uint32_t> dist(n, kNone), frontier;
    for (std::uint32_t f = 0; f < n; ++f) {
        bool boundary = neighbours(s.g, f).size() < 3;
        for (std::uint32_t h : neighbours(s.g, f)) boundary = boundary || s.label[h] != s.label[f];
        if (boundary) {
            dist[f] = 0;
            frontier.push_back(f);
        }
    }
    for (std::uint32_t d = 1; !frontier.empty(); ++d) {  // multi-source BFS inside patches
        std::vector<std::uint32_t> next;
        for (std::uint32_t f : frontier)
            for (std::uint32_t h : neighbours(s.g, f))
                if (dist[h] == kNone && s.label[h] == s.label[f]) {
                    dist[h] = d;
                    next.push_back(h);
                }
        frontier.swap(next);
    }
    std::vector<std::uint32_t> best(s.K, kNone);  // a face per patch
    for (std::uint32_t i = 0; i < n; ++i) {       // curve order: ties keep the first
        const std::uint32_t f = s.order[i], p = s.label[f];
        if (best[p] == kNone || dist[f] > dist[best[p]])  // kNone: farthest of all
            best[p] = f;
    }
    std::sort(best.begin(), best.end(),
              [&](std::uint32_t a, std::uint32_t b) { return s.rank[a] < s.rank[b]; });
    return best;
}

//! Splits every patch over capacity: m = max(2, ceil(size / spacing)) seeds
//! at its members (2j + 1) * size / (2m) in curve order, regrown inside the
//! patch. Returns false when every patch fits.
bool split_round(State& s, std::uint32_t capacity)
{
    std::vector<std::vector<std::uint32_t>> members(s.K);
    for (std::uint32_t f : s.order) members[s.label[f]].push_back(f);
    std::vector<std::uint32_t> seeds;
    std::vector<char>          split(s.K, 0);
    for (std::uint32_t p = 0; p < s.K; ++p) {
        const std::uint64_t size = members[p].size();
        if (size <= capacity) continue;
        split[p]              = 1;
        const std::uint64_t m = std::max<std::uint64_t>(2, (size + s.spacing - 1) / s.spacing);
        for (std::uint64_t j = 0; j < m; ++j)
            seeds.push_back(members[p][(2 * j + 1) * size / (2 * m)]);
    }
    if (seeds.empty()) return false;
    const std::vector<std::uint32_t> group = s.label;
    for (std::uint32_t& p : s.label)
        if (split[p]) p = kNone;
    grow(s.g, seeds, s.K, &group, s.label);
    s.K += static_cast<std::uint32_t>(seeds.size());
    return true;
}

//! Patch ids renumbered by each patch's first face on the curve.
std::uint32_t number_by_curve(State& s)
{
    std::vector<std::uint32_t> id(s.K, kNone);
    std::uint32_t              count = 0;
    for (std::uint32_t f : s.order)
        if (id[s.label[f]] == kNone) id[s.label[f]] = count++;
    for (std::uint32_t& p : s.label) p = id[p];
    return count;
}

}  // namespace

CurvePatches curve_patches(const std::vector<float>& positions, const std::vector<Triangle>& faces,
                           const PatcherOptions& options)
{
    CurvePatches result;
    if (faces.empty()) return result;
    State s;
    s.g     = build_topology(static_cast<std::uint32_t>(positions.size() / 3), faces).ff;
    s.order = curve_order(positions, faces);
    s.rank.resize(faces.size());
    for (std::uint32_t i = 0; i < s.order.size(); ++i) s.rank[s.order[i]] = i;
    s.spacing = std::max<std::uint32_t>(
        1,
        static_cast<std::uint32_t>(std::uint64_t(options.capacity) * options.fill_percent / 100));

    std::vector<std::uint32_t> seeds = initial_seeds(s, result.num_components);
    for (std::uint32_t step = 0; step <= options.recenter_steps; ++step) {
        if (step > 0) seeds = central_faces(s);
        s.K = static_cast<std::uint32_t>(seeds.size());
        s.label.assign(faces.size(), kNone);
        grow(s.g, seeds, 0, nullptr, s.label);
    }
    while (split_round(s, options.capacity)) {
    }
    result.num_patches = number_by_curve(s);
    std::vector<std::uint32_t> size(result.num_patches, 0);
    for (std::uint32_t p : s.label)
        result.max_patch_faces = std::max(result.max_patch_faces, ++size[p]);
    result.face_patch = std::move(s.label);
    return result;
}

}  // namespace rxmesh::reference
