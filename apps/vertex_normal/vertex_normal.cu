// vertex_normal [FILE] [--weld] [--capacity N] [--out FILE.ply]
//
// Vertex normals (Max 1999 weights) with RXMesh on the GPU, checked against
// the double-precision CPU reference; writes the mesh with its normals as
// PLY vertex properties nx, ny, nz, vertices in input order (welded copies
// and unused input vertices do not appear). Without FILE: a generated torus.
// Bad input: exit status 1 and one line on stderr.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"

int main(int argc, char** argv)
{
    try {
        std::string          file, out = "vertex_normals.ply";
        rxmesh::BuildOptions options;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--weld")
                options.weld = true;
            else if (a == "--capacity" && i + 1 < argc)
                options.patcher.capacity = static_cast<std::uint32_t>(std::stoul(argv[++i]));
            else if (a == "--out" && i + 1 < argc)
                out = argv[++i];
            else if (!a.empty() && a[0] != '-' && file.empty())
                file = a;
            else {
                std::fprintf(stderr,
                             "usage: vertex_normal [FILE] [--weld] [--capacity N] [--out F.ply]\n");
                return 2;
            }
        }
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
            const char* req = std::getenv("RXMESH_REQUIRE_GPU");
            std::fprintf(stderr, "vertex_normal: no CUDA device\n");
            return (req && std::string(req) == "1") ? 1 : 77;  // 77: ctest's skip
        }
        const rxmesh::TriangleSoup soup =
            file.empty() ? rxmesh::generate::torus(512, 256) : rxmesh::io::read(file);
        const rxmesh::RXMesh mesh(soup, options);

        rxmesh::DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
        rxmesh::GpuTimer            timer;
        rxmesh::vertex_normals(mesh, mesh.positions().data(), normals.data());  // warm-up
        timer.start();
        rxmesh::vertex_normals(mesh, mesh.positions().data(), normals.data());
        const float ms = timer.stop_ms();

        // check against the reference, in the mesh's global numbering
        const auto            n    = normals.to_host();
        const auto            fpos = mesh.positions().to_host();
        const auto            ffac = mesh.faces().to_host();
        std::vector<rxmesh::Vec3f>    pos(mesh.num_vertices());
        std::vector<rxmesh::Triangle> faces(mesh.num_faces());
        std::memcpy(pos.data(), fpos.data(), fpos.size() * sizeof(float));
        std::memcpy(faces.data(), ffac.data(), ffac.size() * sizeof(std::uint32_t));
        const auto ref   = rxmesh::reference::vertex_normals(pos, faces);
        double     worst = 0;
        for (std::size_t v = 0; v < ref.size(); ++v)
            for (int k = 0; k < 3; ++k)
                worst = std::max(worst, std::abs(double(n[3 * v + k]) - ref[v][k]));

        // write in input order: vertices sorted by their input id
        const std::vector<std::uint32_t> order = rxmesh::input_vertex_order(mesh);
        const std::vector<std::uint32_t> rank  = rxmesh::input_vertex_rank(order);
        rxmesh::TriangleSoup result;
        std::vector<rxmesh::io::VertexScalar> props = {{"nx", {}}, {"ny", {}}, {"nz", {}}};
        for (std::uint32_t g : order) {
            result.positions.push_back(pos[g]);
            for (int k = 0; k < 3; ++k)
                props[k].values.push_back(n[3 * g + k]);
        }
        for (const auto& t : faces)
            result.faces.push_back({rank[t[0]], rank[t[1]], rank[t[2]]});
        rxmesh::io::write_ply(out, result, props);

        std::printf("{\"vertices\": %u, \"faces\": %u, \"patches\": %u, \"gpu_ms\": %.4f, "
                    "\"max_abs_error_vs_cpu\": %.3g, \"output\": \"%s\"}\n",
                    mesh.num_vertices(), mesh.num_faces(), mesh.num_patches(), ms, worst,
                    out.c_str());
        return worst < 1e-5 ? 0 : 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vertex_normal: %s\n", e.what());
        return 1;
    }
}
