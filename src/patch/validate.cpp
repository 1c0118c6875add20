// validate(): checks a HostPatchStore against the global incidence of the
// renumbered faces (validate_incidence.h). Independent of any builder, and
// of the reference code that tests it: everything is reconstructed from the
// store itself (owned ranges, ribbon lists, M_EV, M_FE). Each contract has
// its own check (validate_context.h); this file runs them in order.
#include "rxmesh/patch/validate.h"

#include <sstream>

#include "validate_context.h"

namespace rxmesh {

const char* to_string(Contract c)
{
    switch (c) {
        case Contract::Offsets: return "Offsets";
        case Contract::Capacity: return "Capacity";
        case Contract::Connected: return "Connected";
        case Contract::LocalIds: return "LocalIds";
        case Contract::FaceGeometry: return "FaceGeometry";
        case Contract::EdgeOwnership: return "EdgeOwnership";
        case Contract::VertexOwnership: return "VertexOwnership";
        case Contract::RibbonFaces: return "RibbonFaces";
        case Contract::RibbonLists: return "RibbonLists";
        case Contract::OneRing: return "OneRing";
    }
    return "Unknown";
}

std::string ValidationReport::summary() const
{
    std::ostringstream os;
    for (const auto& v : violations)
        os << '[' << to_string(v.contract) << "] " << v.message << '\n';
    if (total > violations.size())
        os << "... and " << (total - violations.size()) << " more violations\n";
    return os.str();
}

ValidationReport validate(const HostPatchStore&        store,
                          const std::vector<Triangle>& faces,
                          std::uint32_t                num_vertices,
                          std::size_t                  max_reports)
{
    using namespace detail;
    using namespace detail::validation;
    ValidationReport report;

    // Throws InvalidInputError when `faces` itself is invalid (the caller's
    // input, not the store).
    const Incidence mesh = build_incidence(num_vertices, faces);
    ValidateContext ctx(store, faces, num_vertices, mesh, report, max_reports);

    if (!check_offsets(ctx))
        return report;  // nothing below can be located
    assign_owners(ctx);
    check_capacity_and_connected(ctx);
    // per patch, so that a patch's entry and LocalIds violations are
    // reported together; either one leaves the patch out from here on
    for (u32 p = 0; p < ctx.NP; ++p) {
        check_ribbon_entries(ctx, p);
        check_local_ids(ctx, p);
    }
    check_owned_edges(ctx);
    check_edge_ownership(ctx);
    check_vertex_ownership(ctx);
    for (u32 p = 0; p < ctx.NP; ++p) {
        if (!ctx.patch_ok[p])
            continue;
        const LocalPatch lp = local_patch(ctx, p);
        check_ribbon_edge_ownership(ctx, lp);
        check_face_geometry(ctx, lp);
        check_ribbon_faces(ctx, lp);
        check_ribbon_lists(ctx, lp);
        check_one_ring(ctx, lp);
    }
    return report;
}

}  // namespace rxmesh
