// delaunay_flips (algo/delaunay.h): passes of the rule in delaunay.cuh.
#include "rxmesh/algo/delaunay.cuh"

namespace rxmesh {

DelaunayReport delaunay_flips(DynamicMesh& mesh, const DelaunayOptions& options)
{
    DelaunayReport report;
    while (report.passes < options.max_passes) {
        const PassReport pass = mesh.flip_pass(DelaunayDecide{options.tolerance});
        ++report.passes;
        report.flips += pass.applied;
        report.ms += pass.ms;
        report.refused = pass.refused;
        if (!pass.progress()) {
            report.converged = true;
            break;
        }
    }
    return report;
}

}  // namespace rxmesh
