// The eight queries and the k-rings as CSR arrays (query_rows.cuh).
#include "ops.h"
#include "rxmesh/query_rows.cuh"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

Rows shared_rows(DeviceRows r)
{
    Rows out;
    out.num_rows = r.num_rows;
    out.offsets  = std::make_shared<DeviceBuffer<std::uint32_t>>(std::move(r.offsets));
    out.indices  = std::make_shared<DeviceBuffer<std::uint32_t>>(std::move(r.indices));
    return out;
}

}  // namespace

Rows query_rows(const MeshHandle& h, Op op, bool oriented, cudaStream_t s)
{
    const RXMesh& m = *h.mesh;
    switch (op) {
        case Op::VV: return shared_rows(rxmesh::query_rows<Op::VV>(m, oriented, s));
        case Op::VE: return shared_rows(rxmesh::query_rows<Op::VE>(m, oriented, s));
        case Op::VF: return shared_rows(rxmesh::query_rows<Op::VF>(m, oriented, s));
        case Op::EV: return shared_rows(rxmesh::query_rows<Op::EV>(m, false, s));
        case Op::EF: return shared_rows(rxmesh::query_rows<Op::EF>(m, false, s));
        case Op::FV: return shared_rows(rxmesh::query_rows<Op::FV>(m, false, s));
        case Op::FE: return shared_rows(rxmesh::query_rows<Op::FE>(m, false, s));
        case Op::FF: return shared_rows(rxmesh::query_rows<Op::FF>(m, false, s));
    }
    throw InvalidInputError("query: unknown query");
}

Rows kring_rows(const MeshHandle& h, int k, cudaStream_t s)
{
    return shared_rows(rxmesh::kring_rows(*h.mesh, k, s));
}

}  // namespace rxmesh::python
