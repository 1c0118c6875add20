#include "osd_oracle.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "rxmesh/reference/loop_subdivision.h"

#if defined(RXMESH_HAVE_OPENSUBDIV)
#include <opensubdiv/far/primvarRefiner.h>
#include <opensubdiv/far/topologyDescriptor.h>
#endif

namespace rxmesh::test {

#if defined(RXMESH_HAVE_OPENSUBDIV)

namespace {

namespace osd = OpenSubdiv;
using EdgeIds = std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t>;

struct OsdPoint
{
    double p[3];
    void   Clear(void* = nullptr) { p[0] = p[1] = p[2] = 0; }
    void   AddWithWeight(const OsdPoint& s, float w)
    {
        for (int d = 0; d < 3; ++d)
            p[d] += w * s.p[d];
    }
};

//! Our vertex for each OpenSubdiv vertex of a level: its children of
//! vertices come first, in the parent level's order.
std::vector<std::uint32_t> match_level(const osd::Far::TopologyLevel& level, std::uint32_t parents,
                                       const std::vector<std::uint32_t>& parent_map,
                                       const EdgeIds& our_edge)
{
    std::vector<std::uint32_t> map(level.GetNumVertices());
    for (std::uint32_t v = 0; v < parents; ++v)
        map[v] = parent_map[v];
    for (int v = int(parents); v < level.GetNumVertices(); ++v) {
        std::vector<std::uint32_t> ends;
        for (int e : level.GetVertexEdges(v)) {
            const auto ev = level.GetEdgeVertices(e);
            const int  w  = ev[0] == v ? ev[1] : ev[0];
            if (w < int(parents))
                ends.push_back(parent_map[w]);
        }
        const auto it = ends.size() == 2
                            ? our_edge.find({std::min(ends[0], ends[1]), std::max(ends[0], ends[1])})
                            : our_edge.end();
        if (it == our_edge.end())
            throw std::runtime_error("OpenSubdiv vertex " + std::to_string(v) + " matches no edge");
        map[v] = parents + it->second;
    }
    return map;
}

std::unique_ptr<osd::Far::TopologyRefiner> refine(const TriangleSoup& soup, int levels,
                                                  const std::vector<std::array<std::uint32_t, 2>>& sharp)
{
    std::vector<int> per_face(soup.faces.size(), 3), indices, crease_pairs;
    for (const auto& f : soup.faces)
        indices.insert(indices.end(), f.begin(), f.end());
    for (const auto& e : sharp)
        crease_pairs.insert(crease_pairs.end(), {int(e[0]), int(e[1])});
    std::vector<float>           weights(sharp.size(), osd::Sdc::Crease::SHARPNESS_INFINITE);
    osd::Far::TopologyDescriptor desc;
    desc.numVertices            = int(soup.positions.size());
    desc.numFaces               = int(soup.faces.size());
    desc.numVertsPerFace        = per_face.data();
    desc.vertIndicesPerFace     = indices.data();
    desc.numCreases             = int(sharp.size());
    desc.creaseVertexIndexPairs = crease_pairs.data();
    desc.creaseWeights          = weights.data();
    osd::Sdc::Options opts;
    opts.SetVtxBoundaryInterpolation(osd::Sdc::Options::VTX_BOUNDARY_EDGE_ONLY);
    using Factory = osd::Far::TopologyRefinerFactory<osd::Far::TopologyDescriptor>;
    std::unique_ptr<osd::Far::TopologyRefiner> refiner(
        Factory::Create(desc, Factory::Options(osd::Sdc::SCHEME_LOOP, opts)));
    if (!refiner)
        throw std::runtime_error("OpenSubdiv refused the mesh");
    osd::Far::TopologyRefiner::UniformOptions uniform(levels);
    uniform.fullTopologyInLastLevel = true;  // the matching reads the last level's edges
    refiner->RefineUniform(uniform);
    return refiner;
}

EdgeIds edge_ids(const reference::LoopMesh& ours)
{
    EdgeIds    ids;
    const auto edges = reference::loop_level_edges(ours);
    for (std::uint32_t e = 0; e < edges.size(); ++e)
        ids[{std::min(edges[e][0], edges[e][1]), std::max(edges[e][0], edges[e][1])}] = e;
    return ids;
}

}  // namespace

bool osd_oracle_available() { return true; }

std::vector<std::vector<std::array<double, 3>>> osd_levels_in_our_numbering(
    const TriangleSoup& soup, int levels, const std::vector<std::array<std::uint32_t, 2>>& sharp)
{
    const auto            refiner = refine(soup, levels, sharp);
    std::vector<OsdPoint> points(refiner->GetNumVerticesTotal());
    for (std::size_t v = 0; v < soup.positions.size(); ++v)
        for (int d = 0; d < 3; ++d)
            points[v].p[d] = soup.positions[v][d];
    osd::Far::PrimvarRefiner primvar(*refiner);
    // our numbering comes from the reference's edge lists (its positions are not used)
    reference::LoopMesh ours = reference::loop_subdivide(soup.positions, soup.faces, 0);
    std::vector<std::uint32_t> map(soup.positions.size());
    for (std::uint32_t v = 0; v < map.size(); ++v)
        map[v] = v;
    std::vector<std::vector<std::array<double, 3>>> out;
    OsdPoint* src = points.data();
    for (int l = 1; l <= levels; ++l) {
        OsdPoint* dst = src + refiner->GetLevel(l - 1).GetNumVertices();
        primvar.Interpolate(l, src, dst);
        const EdgeIds       ids     = edge_ids(ours);
        const auto          parents = std::uint32_t(ours.positions.size());
        ours                        = reference::loop_subdivide_once(ours);
        const auto&         level   = refiner->GetLevel(l);
        if (std::size_t(level.GetNumVertices()) != ours.positions.size() ||
            std::size_t(level.GetNumFaces()) != ours.faces.size())
            throw std::runtime_error("OpenSubdiv's level " + std::to_string(l) + " has other counts");
        map = match_level(level, parents, map, ids);
        out.emplace_back(ours.positions.size());
        for (int v = 0; v < level.GetNumVertices(); ++v)
            out.back()[map[v]] = {dst[v].p[0], dst[v].p[1], dst[v].p[2]};
        src = dst;
    }
    return out;
}

#else

bool osd_oracle_available() { return false; }

std::vector<std::vector<std::array<double, 3>>> osd_levels_in_our_numbering(
    const TriangleSoup&, int, const std::vector<std::array<std::uint32_t, 2>>&)
{
    throw std::runtime_error("built without OpenSubdiv");
}

#endif

}  // namespace rxmesh::test
