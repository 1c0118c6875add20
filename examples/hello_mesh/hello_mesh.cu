// hello_mesh: a first program against RXMesh, built outside its source tree
// (README.md next to this file says how). It reads a mesh (OBJ, OFF, PLY or
// STL), or makes a torus when given none, and on the GPU:
//   1. counts each vertex's neighbours with a VV query and a device lambda;
//   2. computes unit vertex normals (algo/vertex_normals.h);
// then checks the valences against the edge count (their sum is twice the
// number of edges) and writes the normals, one row per input vertex, as a
// PLY when given an output path.
//
//   hello_mesh [mesh] [out.ply]
//
// Exit status: 0 done; 1 bad input, or a check failed; 77 no usable CUDA
// device (the program compiled, which is what a downstream build checks).
#include <cstdio>
#include <exception>
#include <string>

#include "rxmesh/algo/vertex_normals.h"
#include "rxmesh/core/error.h"
#include "rxmesh/export.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.cuh"

namespace {

//! Sum over the vertices of their VV row lengths, from a device lambda.
double valence_sum(rxmesh::RXMesh& mesh)
{
    using namespace rxmesh;
    auto valence = mesh.add_vertex_attribute<float, 1>("valence", 0.f);
    mesh.for_each<Op::VV>([=] __device__(VertexId v, const RowView<VertexId>& vv) {
        valence(v) = float(vv.size());
    });
    valence.to_host();
    double sum = 0;
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
        sum += valence.host(VertexId(v));
    return sum;
}

int run(int argc, char** argv)
{
    using namespace rxmesh;
    const TriangleSoup soup = argc > 1 ? io::read(argv[1]) : generate::torus(64, 32);
    RXMesh             mesh(soup);  // patches built on the GPU
    std::printf("hello_mesh: %u vertices, %u edges, %u faces in %u patches\n",
                mesh.num_vertices(), mesh.num_edges(), mesh.num_faces(), mesh.num_patches());

    const double sum = valence_sum(mesh);
    if (sum != 2.0 * double(mesh.num_edges())) {
        std::fprintf(stderr, "hello_mesh: the valences sum to %.0f, expected twice the %u edges\n",
                     sum, mesh.num_edges());
        return 1;
    }
    std::printf("hello_mesh: mean valence %.3f\n", sum / mesh.num_vertices());

    auto normals = mesh.add_vertex_attribute<float, 3>("normal");
    vertex_normals(mesh, mesh.positions(), normals);
    if (argc > 2) {
        write_ply(argv[2], mesh, soup, input_order_scalars<3>(mesh, normals, {"nx", "ny", "nz"}));
        std::printf("hello_mesh: wrote %s\n", argv[2]);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        return run(argc, argv);
    } catch (const rxmesh::NoDeviceError& e) {
        std::fprintf(stderr, "hello_mesh: %s\n", e.what());
        return 77;
    } catch (const std::exception& e) {  // rxmesh::Error and its kinds, bad_alloc
        std::fprintf(stderr, "hello_mesh: %s\n", e.what());
        return 1;
    }
}
