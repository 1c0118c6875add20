#include "osd_loop.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#ifdef RXMESH_HAVE_OPENSUBDIV
#include <opensubdiv/far/error.h>
#include <opensubdiv/far/primvarRefiner.h>
#include <opensubdiv/far/stencilTableFactory.h>
#include <opensubdiv/far/topologyDescriptor.h>
#include <opensubdiv/osd/bufferDescriptor.h>
#include <opensubdiv/osd/ompEvaluator.h>

#include <memory>
#endif

namespace rxmesh::bench {

#ifndef RXMESH_HAVE_OPENSUBDIV

bool osd_available()
{
    return false;
}

OsdLoopResult osd_loop_subdivide(const std::vector<float>&, const std::vector<std::uint32_t>&, int,
                                 int, OsdLoopTimes*)
{
    throw std::runtime_error("OpenSubdiv not found at build time");
}

#else

namespace {

namespace osd = OpenSubdiv;
using Clock   = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

//! One vertex of a float xyz array, as Far::PrimvarRefiner interpolates it.
struct PointRef
{
    float* p;
    void   Clear(void* = nullptr) { p[0] = p[1] = p[2] = 0; }
    void   AddWithWeight(const PointRef& s, float w)
    {
        p[0] += w * s.p[0], p[1] += w * s.p[1], p[2] += w * s.p[2];
    }
};

//! A float xyz array seen as PointRef's, so that levels are read and written
//! in place, the last one straight into the result.
struct Points
{
    float*   data;
    PointRef operator[](int v) const { return {data + 3 * std::size_t(v)}; }
};

void check_arguments(const std::vector<float>& positions, const std::vector<std::uint32_t>& faces,
                     int levels, int threads)
{
    if (positions.size() % 3 || faces.size() % 3 || faces.empty())
        throw std::runtime_error(
            "osd_loop_subdivide: needs 3 floats per vertex, 3 indices per face, a face");
    if (levels < 1 || levels > 15 || threads < 1)
        throw std::runtime_error("osd_loop_subdivide: levels must be in 1..15, threads >= 1");
    for (std::uint32_t v : faces)  // TopologyDescriptor does not check them
        if (v >= positions.size() / 3)
            throw std::runtime_error("osd_loop_subdivide: face index " + std::to_string(v) +
                                     " out of range");
}

std::string g_osd_error;  // the message of Far's last error (its callback has no context)

void keep_error(osd::Far::ErrorType, const char* message)
{
    g_osd_error = message;
}

//! Far's topology of `levels` uniform Loop levels; only the last level's
//! face-vertices are needed from it, which fullTopologyInLastLevel = false
//! still builds.
std::unique_ptr<osd::Far::TopologyRefiner> refine(const std::vector<float>&         positions,
                                                  const std::vector<std::uint32_t>& faces,
                                                  int                               levels)
{
    const std::vector<int>       per_face(faces.size() / 3, 3);
    osd::Far::TopologyDescriptor desc;
    desc.numVertices        = int(positions.size() / 3);
    desc.numFaces           = int(per_face.size());
    desc.numVertsPerFace    = per_face.data();
    desc.vertIndicesPerFace = reinterpret_cast<const int*>(faces.data());
    osd::Sdc::Options opts;
    opts.SetVtxBoundaryInterpolation(osd::Sdc::Options::VTX_BOUNDARY_EDGE_ONLY);
    using Factory = osd::Far::TopologyRefinerFactory<osd::Far::TopologyDescriptor>;
    g_osd_error.clear();
    osd::Far::SetErrorCallback(keep_error);
    std::unique_ptr<osd::Far::TopologyRefiner> refiner(
        Factory::Create(desc, Factory::Options(osd::Sdc::SCHEME_LOOP, opts)));
    osd::Far::SetErrorCallback(nullptr);
    if (!refiner)
        throw std::runtime_error("OpenSubdiv rejected the mesh: " + g_osd_error);
    osd::Far::TopologyRefiner::UniformOptions uniform(levels);
    uniform.fullTopologyInLastLevel = false;
    refiner->RefineUniform(uniform);
    return refiner;
}

//! Where each level's vertices start in one array of all levels.
std::vector<int> level_offsets(const osd::Far::TopologyRefiner& refiner)
{
    std::vector<int> offsets{0};
    for (int l = 0; l <= refiner.GetMaxLevel(); ++l)
        offsets.push_back(offsets.back() + refiner.GetLevel(l).GetNumVertices());
    return offsets;
}

//! Levels 1 .. L by Far::PrimvarRefiner: `work` holds levels 0 .. L-1 (level 0
//! given), `last` receives level L.
void interpolate_primvar(const osd::Far::TopologyRefiner& refiner, const std::vector<int>& offsets,
                         float* work, float* last)
{
    const osd::Far::PrimvarRefiner primvar(refiner);
    const int                      levels = refiner.GetMaxLevel();
    for (int l = 1; l <= levels; ++l) {
        const Points src{work + 3 * std::size_t(offsets[l - 1])};
        Points       dst{l == levels ? last : work + 3 * std::size_t(offsets[l])};
        primvar.Interpolate(l, src, dst);
    }
}

//! Stencils of every refined vertex, level after level; a level's stencils
//! read the previous level (indices from that level's first vertex).
std::unique_ptr<const osd::Far::StencilTable> build_stencils(
    const osd::Far::TopologyRefiner& refiner)
{
    osd::Far::StencilTableFactory::Options options;
    options.generateIntermediateLevels  = true;
    options.factorizeIntermediateLevels = false;
    options.generateOffsets             = true;  // OmpEvaluator needs them
    options.maxLevel                    = refiner.GetMaxLevel();
    return std::unique_ptr<const osd::Far::StencilTable>(
        osd::Far::StencilTableFactory::Create(refiner, options));
}

//! Levels 1 .. L from the stencils, one level's range at a time since a level
//! reads the one before it; `work` and `last` as in interpolate_primvar.
void evaluate_stencils(const osd::Far::StencilTable& table, const std::vector<int>& offsets,
                       float* work, float* last)
{
    const osd::Osd::BufferDescriptor desc(0, 3, 3);
    const int                        levels = int(offsets.size()) - 2;
    const int                        coarse = offsets[1];  // the table starts at level 1
    for (int l = 1; l <= levels; ++l) {
        const float* src = work + 3 * std::size_t(offsets[l - 1]);
        float*       dst = l == levels ? last : work + 3 * std::size_t(offsets[l]);
        osd::Osd::OmpEvaluator::EvalStencils(
            src, desc, dst, desc, table.GetSizes().data(), table.GetOffsets().data(),
            table.GetControlIndices().data(), table.GetWeights().data(), offsets[l] - coarse,
            offsets[l + 1] - coarse);
    }
}

// Both libraries make face f faces 4f .. 4f+3, but OpenSubdiv's children of
// (v0, v1, v2), with edge points e0 = (v0, v1), e1 = (v1, v2), e2 = (v2, v0),
// are (v0, e0, e2), (e0, v1, e1), (e2, e1, v2), (e1, e2, e0) and ours
// (v0, e0, e2), (v1, e1, e0), (v2, e2, e1), (e0, e1, e2): the same faces with
// their corners shifted by 0, 1, 2 and 2. Below a face of shift s (our corner
// j is OpenSubdiv's corner (j + s) % 3) the corner children are permuted
// too: OpenSubdiv's child m is our child kOurs[s][m], of shift kShift[s][m].
constexpr int kOurs[3][4]  = {{0, 1, 2, 3}, {2, 0, 1, 3}, {1, 2, 0, 3}};
constexpr int kShift[3][4] = {{0, 1, 2, 2}, {0, 1, 2, 0}, {0, 1, 2, 1}};

//! Writes the last-level descendants (`depth` >= 1 levels down) of our face
//! `ours`, OpenSubdiv's face `theirs` of shift `shift`, in our order. Walks
//! OpenSubdiv's faces in order, since its face-vertex reads are the slow side.
void copy_descendants(const osd::Far::TopologyLevel& last, int depth, std::size_t ours,
                      std::size_t theirs, int shift, std::uint32_t* out)
{
    for (int m = 0; m < 4; ++m) {
        const std::size_t child = 4 * ours + kOurs[shift][m];
        const int         s     = kShift[shift][m];
        if (depth > 1) {
            copy_descendants(last, depth - 1, child, 4 * theirs + m, s, out);
            continue;
        }
        const osd::Far::ConstIndexArray fv = last.GetFaceVertices(int(4 * theirs + m));
        for (int j = 0; j < 3; ++j)
            out[3 * child + j] = std::uint32_t(fv[(j + s) % 3]);
    }
}

}  // namespace

bool osd_available()
{
    return true;
}

OsdLoopResult osd_loop_subdivide(const std::vector<float>&         positions,
                                 const std::vector<std::uint32_t>& faces, int levels, int threads,
                                 OsdLoopTimes* times)
{
    check_arguments(positions, faces, levels, threads);
    OsdLoopTimes t;
    auto         start   = Clock::now();
    const auto   refiner = refine(positions, faces, levels);
    t.refine_ms          = ms_since(start);

    const std::vector<int> offsets = level_offsets(*refiner);
    std::vector<float>     work(3 * std::size_t(offsets[levels]));
    std::copy(positions.begin(), positions.end(), work.begin());
    const osd::Far::TopologyLevel& last = refiner->GetLevel(levels);
    OsdLoopResult                  result;
    result.positions.resize(3 * std::size_t(last.GetNumVertices()));
    result.faces.resize(3 * std::size_t(last.GetNumFaces()));
    if (threads == 1) {
        start = Clock::now();
        interpolate_primvar(*refiner, offsets, work.data(), result.positions.data());
        t.primvar_ms = ms_since(start);
    } else {
        start              = Clock::now();
        const auto table   = build_stencils(*refiner);
        t.stencil_build_ms = ms_since(start);
        osd::Osd::OmpEvaluator::SetNumThreads(threads);  // omp_set_num_threads in libosdCPU
        start = Clock::now();
        evaluate_stencils(*table, offsets, work.data(), result.positions.data());
        t.stencil_eval_ms = ms_since(start);
    }
    start = Clock::now();
    for (std::size_t f = 0; f < faces.size() / 3; ++f)
        copy_descendants(last, levels, f, f, 0, result.faces.data());
    t.faces_ms = ms_since(start);
    if (times)
        *times = t;
    return result;
}

#endif

}  // namespace rxmesh::bench
