// loop_subdivide (algo/loop_subdivision.h): the levels over the steps of
// loop_subdivision.cuh.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/algo/loop_subdivision.cuh"

namespace rxmesh {

LoopMesh loop_subdivide(VertexView<const float, 3> positions,
                        FaceView<const std::uint32_t, 3> faces, int levels, const LoopOptions& opt,
                        cudaStream_t s)
{
    if (levels < 0)
        throw InvalidInputError("loop_subdivide: levels must be >= 0, got " + std::to_string(levels));
    const float* const         d_positions  = positions.data();
    const std::uint32_t* const d_faces      = faces.data();
    const std::uint32_t        num_vertices = positions.num_elements();
    const std::uint32_t        num_faces    = faces.num_elements();
    loop::StepTimer            timer(opt.time_levels, s);
    loop::Level cur = loop::make_level0(num_vertices, d_faces, num_faces, opt.sharp_edges, s);
    const auto counts = loop::level_counts({cur.V, cur.E, cur.F}, levels);
    const bool sharp  = !opt.sharp_edges.empty();
    loop::require_fits(counts, sharp, cur.bytes(), loop::available_device_bytes());
    timer.mark();
    LoopMesh    result;
    LoopReport& report = result.report;
    report.peak_bytes  = cur.bytes();
    loop::LevelView lv = loop::view0(cur, d_positions, d_faces);
    // levels 1 .. L - 2 with their whole topology; then L - 1 (positions
    // only) and L from level L - 2 (loop_last.cuh); a single level from level 0
    const int block = opt.block_threads;
    for (int l = 0; l < levels - 2; ++l) {
        loop::Level next  = loop::allocate_next(counts[l + 1], sharp, s);
        report.peak_bytes = std::max(report.peak_bytes, loop::refine(cur, lv, next, block, s));
        cur = std::move(next);
        lv  = loop::view(cur);
        timer.mark();
    }
    if (levels == 1) {
        loop::Level next;
        report.peak_bytes = std::max(report.peak_bytes, loop::refine_last(cur, lv, next, counts[1], block, s));
        cur = std::move(next);
        timer.mark();
    } else if (levels >= 2) {
        const loop::Counts &c1 = counts[levels - 1], &c2 = counts[levels];
        loop::add_links(cur, lv, block, s);
        DeviceBuffer<float> pos1(3 * c1.V, s);
        loop::NextView      positions_only{};
        positions_only.pos = pos1.data();
        loop::launch_points(lv, positions_only, block, s);
        timer.mark();
        loop::Level last;
        last.V = std::uint32_t(c2.V), last.E = std::uint32_t(c2.E), last.F = std::uint32_t(c2.F);
        loop::last_from_grandparent(lv, cur, pos1.data(), std::uint32_t(c1.V), c2.V, c2.F, block, s, last);
        report.peak_bytes = std::max(report.peak_bytes, cur.bytes() + pos1.bytes() + last.bytes());
        cur = std::move(last);
        timer.mark();
    }
    timer.report(report);
    report.num_vertices = cur.V;
    report.num_faces    = cur.F;
    if (levels == 0) {
        result.positions = loop::copy_of(d_positions, 3 * std::size_t(cur.V), s);
        result.faces     = loop::copy_of(d_faces, 3 * std::size_t(cur.F), s);
    } else {
        result.positions = std::move(cur.pos);
        result.faces     = std::move(cur.fv);
    }
    return result;
}

TriangleSoup loop_subdivide(const TriangleSoup& mesh, int levels, const LoopOptions& opt,
                            cudaStream_t stream)
{
    std::vector<float> pos;
    pos.reserve(3 * mesh.positions.size());
    for (const Vec3f& p : mesh.positions)
        pos.insert(pos.end(), p.begin(), p.end());
    std::vector<std::uint32_t> faces;
    faces.reserve(3 * mesh.faces.size());
    for (const Triangle& f : mesh.faces)
        faces.insert(faces.end(), f.begin(), f.end());
    const auto     d_pos   = DeviceBuffer<float>::from_host(pos, stream);
    const auto     d_faces = DeviceBuffer<std::uint32_t>::from_host(faces, stream);
    const LoopMesh r       = loop_subdivide({d_pos.data(), std::uint32_t(mesh.positions.size())},
                                            {d_faces.data(), std::uint32_t(mesh.faces.size())},
                                            levels, opt, stream);
    TriangleSoup out;
    out.positions.resize(r.report.num_vertices);
    out.faces.resize(r.report.num_faces);
    const std::vector<float>         p = r.positions.to_host();
    const std::vector<std::uint32_t> f = r.faces.to_host();
    for (std::size_t v = 0; v < out.positions.size(); ++v)
        out.positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    for (std::size_t i = 0; i < out.faces.size(); ++i)
        out.faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    return out;
}

void require_loop_ids_fit(const TriangleSoup& soup, int levels)
{
    // 3F bounds the edge count and the level counts grow with it, so the
    // exact count (a host sort the GPU repeats later) is needed only when
    // the bound does not pass.
    const std::uint64_t F = soup.faces.size();
    try {
        loop::require_32bit_ids(loop::level_counts({soup.positions.size(), 3 * F, F}, levels));
        return;
    } catch (const InvalidInputError&) {
    }
    std::vector<std::uint64_t> keys;
    keys.reserve(3 * soup.faces.size());
    for (const Triangle& f : soup.faces)
        for (int j = 0; j < 3; ++j) {
            const std::uint32_t a = f[j], b = f[(j + 1) % 3];
            keys.push_back((std::uint64_t(std::min(a, b)) << 32) | std::max(a, b));
        }
    std::sort(keys.begin(), keys.end());
    const auto E = std::uint64_t(std::unique(keys.begin(), keys.end()) - keys.begin());
    loop::require_32bit_ids(
        loop::level_counts({soup.positions.size(), E, soup.faces.size()}, levels));
}

}  // namespace rxmesh
