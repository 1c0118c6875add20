// What the Python module computes on the GPU, behind a plain C++ interface
// (the CUDA side is compiled by nvcc in the ops_*.cu files, the bindings by
// the host compiler). Every function runs on the stream it is given and
// does not wait for it unless it says so; results are device buffers in
// the order the function names: "input order" is one row per vertex of
// the arrays the mesh was built from, "mesh order" the mesh's own (patch)
// numbering.
#pragma once

#include "rxmesh/algo/mcf.h"  // McfSolver

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rxmesh/algo/heat_geodesic.h"
#include "rxmesh/algo/parameterization.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/matrix/sparse_pattern.h"
#include "rxmesh/query/op.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cholesky.h"

namespace rxmesh::python {

template <typename T>
using Shared = std::shared_ptr<DeviceBuffer<T>>;

//! The element type of an input array.
enum class InType
{
    F32,
    F64,
    I32,
    U32,
    I64
};

//! An (rows, cols) C-contiguous input array, in host or device memory, as
//! the bindings found it (the caller keeps it alive during the call).
struct ArrayIn
{
    const void*   data = nullptr;
    std::uint64_t rows = 0;
    int           cols = 0;
    InType        type = InType::F32;
    bool          on_device = false;
};

//! What a Python Mesh holds.
struct MeshHandle
{
    std::shared_ptr<RXMesh>       mesh;
    std::uint32_t                 num_input_vertices = 0;
    bool                          built_from_device  = false;
    //! The input positions (3 floats each), kept only when the build
    //! dropped or merged vertices: results in input order give a dropped
    //! vertex its input position.
    Shared<float> input_positions;
    //! The vertex pattern of the sparse matrices, built on first use and
    //! kept with the mesh (the topology of a Mesh never changes): every
    //! Laplacian and mass matrix shares its row offsets and columns, and,
    //! freed with the mesh, it outlives any work queued on it.
    mutable std::shared_ptr<const SparsePattern> pattern;

    //! What a dropped vertex gets in input order: its input position (null
    //! when none was dropped or merged).
    const float* fallback_positions() const
    {
        return input_positions ? input_positions->data() : nullptr;
    }
};

//! Builds the mesh. Device arrays of float32 positions and int32/uint32
//! faces are read in place; float64 and int64 ones are converted on the
//! device; host arrays (float32, int64) are uploaded. Waits for `stream`.
MeshHandle build_mesh(const ArrayIn& vertices, const ArrayIn& faces, bool weld,
                      std::uint32_t capacity, cudaStream_t stream);

// ---- orders ----

//! values (cols floats per mesh vertex) -> one row per input vertex; a
//! dropped vertex gets `fallback`'s row when given, else `fill`.
Shared<float> to_input_order(const MeshHandle& h, const float* values, int cols,
                             const float* fallback, float fill, cudaStream_t stream);
//! values (cols floats per input vertex) -> one row per mesh vertex (the
//! first input vertex of each).
Shared<float> to_mesh_order(const MeshHandle& h, const float* values, int cols,
                            cudaStream_t stream);

// ---- the mesh ----

Shared<std::uint32_t> mesh_faces(const MeshHandle& h, cudaStream_t stream);

struct Rows
{
    std::uint32_t         num_rows = 0;
    Shared<std::uint32_t> offsets, indices;
};
//! A query's rows in mesh numbering (query_rows.cuh). Synchronises.
Rows query_rows(const MeshHandle& h, Op op, bool oriented, cudaStream_t stream);
//! Every vertex's k-ring, mesh numbering (itself first). Synchronises.
Rows kring_rows(const MeshHandle& h, int k, cudaStream_t stream);

// ---- attributes (mesh order) ----

struct AttributeInfo
{
    std::string dtype;  // "float32", "int32", "uint8"
    int         components = 0;
    void*       data       = nullptr;
    std::uint32_t num_elements = 0;
};
//! The attribute `name`, of a type Python can see (float32 x 1..4, int32
//! x 1, uint8 x 1). \throw Error when there is none or its type is another.
AttributeInfo attribute_info(const MeshHandle& h, const std::string& name);
std::vector<std::string> attribute_names(const MeshHandle& h);
//! Adds a float32 attribute with `components` values per element of
//! `kind`, copied from device memory `values` (mesh order; null: zeros).
AttributeInfo add_attribute(const MeshHandle& h, const std::string& name, char kind,
                            int components, const float* values, cudaStream_t stream);
void remove_attribute(const MeshHandle& h, const std::string& name);

// ---- algorithms (results in input order) ----

Shared<float> vertex_normals(const MeshHandle& h, cudaStream_t stream);

struct FlowResult
{
    Shared<float> positions;
    float         dt = 0;
    int           iterations = 0;
    double        final_residual = 0;
    bool          converged = false;
};
//! solver: McfSolver::cg (tolerance, max_iterations) or McfSolver::cholesky.
FlowResult mean_curvature_flow(const MeshHandle& h, float dt, float relative_dt, int steps,
                               double tolerance, int max_iterations, bool uniform,
                               McfSolver solver, cudaStream_t stream);

struct GeodesicResult
{
    Shared<float> distance;  // +inf where unreached, NaN for a dropped vertex
    std::uint32_t levels = 0;
    long          iterations = 0;
    bool          converged = false;
};
//! From input vertex ids. \throw InvalidInputError for none, an id out of
//! range or one the mesh dropped.
GeodesicResult geodesic_distance(const MeshHandle& h, const std::vector<std::int64_t>& sources,
                                 double tolerance, cudaStream_t stream);
//! Input vertex ids to the mesh's. \throw InvalidInputError, naming
//! `what`, for none, an id out of range or one the mesh dropped.
std::vector<std::uint32_t> global_sources(const MeshHandle& h,
                                          const std::vector<std::int64_t>& sources,
                                          const std::string& what, cudaStream_t stream);

Shared<float> bilateral_denoise(const MeshHandle& h, int iterations, cudaStream_t stream);

// ---- sparse matrices (matrix/mesh_operators.cuh) ----

//! A square CSR matrix in device memory: int32 row offsets and columns,
//! float or double values. `owner` keeps the three arrays alive: for a
//! matrix in mesh order it is the SparseMatrix itself (no copy).
struct DeviceCsr
{
    std::shared_ptr<const void> owner;
    std::uint32_t               num_rows    = 0;
    std::uint64_t               nnz         = 0;
    const int*                  row_offsets = nullptr;
    const int*                  columns     = nullptr;
    void*                       values      = nullptr;
};
//! `size` floats or doubles in device memory, kept alive by `owner`.
struct DeviceValues
{
    std::shared_ptr<const void> owner;
    void*                       data = nullptr;
    std::uint64_t               size = 0;
};

enum class MeshMatrix
{
    CotangentLaplacian,
    FullMass
};
//! The operator in mesh order, on the mesh's vertex pattern. Rows sorted.
DeviceCsr mesh_matrix(const MeshHandle& h, MeshMatrix which, bool double_precision,
                      cudaStream_t stream);
//! A (mesh order) with rows and columns renamed to input order, a copy:
//! each mesh vertex becomes its first input vertex; a dropped vertex and
//! the later copies of a welded one get empty rows. Rows sorted.
DeviceCsr csr_to_input_order(const MeshHandle& h, const DeviceCsr& A, bool double_precision,
                             cudaStream_t stream);
//! Each vertex's mixed Voronoi area: mesh order, or input order (the
//! diagonal of the input-order matrices: 0 where they have an empty row).
DeviceValues lumped_mass(const MeshHandle& h, bool double_precision, bool input_order,
                         cudaStream_t stream);

// ---- the GPU Cholesky (solver/cholesky.h) of a caller's CSR matrix ----

//! A CSR matrix as the bindings found it: device arrays (values may be
//! null: the analysis reads only the pattern).
struct CsrIn
{
    std::uint64_t  rows = 0, cols = 0;
    const ArrayIn* row_offsets = nullptr;
    const ArrayIn* columns     = nullptr;
    const ArrayIn* values      = nullptr;
};

class Cholesky
{
   public:
    //! Analyzes A's pattern with the mesh's positions (A's rows are the
    //! mesh's vertices: the nested dissection orders them by position).
    //! Waits for `stream`. \throw InvalidInputError for a pattern that is
    //! not square, malformed or not structurally symmetric.
    Cholesky(const CsrIn& A, const MeshHandle& h, cudaStream_t stream);
    ~Cholesky();
    //! Factors A, whose pattern must be the analyzed one (compared on the
    //! device). Synchronous. \throw InvalidInputError for another pattern,
    //! a non-finite entry, or a matrix not symmetric or not positive definite.
    void factor(const CsrIn& A, cudaStream_t stream);
    //! x = A^-1 b; b (rows x k doubles, row-major) on the device.
    //! Synchronous. \throw Error before factor().
    Shared<double> solve(const ArrayIn& b, cudaStream_t stream) const;

    const CholeskyAnalysis& analysis() const;
    bool                    factored() const;
    std::uint32_t           rows() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// ---- the solvers' algorithms (algo/heat_geodesic.h, parameterization.h) ----

struct HeatResult
{
    Shared<float>      distance;  // input order: +inf unreachable, NaN for a dropped vertex
    HeatGeodesicReport report;
};
//! Assembles and factors the heat method's two systems (synchronous).
std::shared_ptr<const HeatGeodesic> make_heat_geodesic(const MeshHandle& h, double time_factor,
                                                       cudaStream_t stream);
//! From mesh vertex ids (global_sources). Synchronous.
HeatResult heat_distance(const MeshHandle& h, const HeatGeodesic& heat,
                         const std::vector<std::uint32_t>& sources, cudaStream_t stream);

struct ParamResult
{
    Shared<float> uv;  // (u, v) per input vertex; NaN for a dropped vertex
    ParamReport   report;
};
//! Tutte (uniform weights) or harmonic (cotangent) map of a disk onto the
//! unit circle. Synchronous. \throw InvalidInputError when the mesh is not
//! a disk (reference::disk_boundary's reason) or the system is singular.
//! method: tutte, harmonic or lscm.
ParamResult parameterize(const MeshHandle& h, const std::string& method, cudaStream_t stream);

// ---- new meshes ----

struct NewMesh
{
    Shared<float>         positions;
    Shared<std::uint32_t> faces;
    Shared<std::uint32_t> input_vertex;  // per vertex, input id or ~0u (changing topology)
    std::uint32_t         num_vertices = 0, num_faces = 0;
    std::string           report_json;
};
NewMesh loop_subdivide(const ArrayIn& vertices, const ArrayIn& faces, int levels,
                       cudaStream_t stream);
//! Where a changing-topology call starts: a Mesh (its patched mesh copied
//! on the device; the result's input ids composed back to the Mesh's
//! input), or the caller's arrays, straight into a DynamicMesh with no
//! patches built (rxmesh.remesh(vertices, faces), ...).
struct TopologyInput
{
    const MeshHandle* mesh     = nullptr;
    const ArrayIn*    vertices = nullptr;
    const ArrayIn*    faces    = nullptr;
};
//! target_length 0: the input's mean edge length. \throw InvalidInputError
//! for a target that is below 0 or would make more faces than 32-bit ids hold.
NewMesh isotropic_remesh(const TopologyInput& in, double target_length, int iterations,
                         bool project, double feature_angle, cudaStream_t stream);
NewMesh qem_simplify(const TopologyInput& in, std::uint32_t target_faces, cudaStream_t stream);
NewMesh delaunay_flips(const TopologyInput& in, cudaStream_t stream);

// ---- differentiable operators (algo/geometry_gradients.cuh), input order ----
// Pointers are the caller's device arrays (torch tensors), contiguous, of
// `double_precision` ? double : float.

void normals_forward(const MeshHandle& h, bool double_precision, const void* positions,
                     void* normals, cudaStream_t stream);
void normals_backward(const MeshHandle& h, bool double_precision, const void* positions,
                      const void* grad_normals, void* grad_positions, cudaStream_t stream);
//! y = L(p) x, `cols` (1..3) values per vertex.
void laplacian_forward(const MeshHandle& h, bool double_precision, int cols,
                       const void* positions, const void* x, void* y, cudaStream_t stream);
//! The gradients of sum(g * y) with respect to the positions and to x.
void laplacian_backward(const MeshHandle& h, bool double_precision, int cols,
                        const void* positions, const void* x, const void* grad_y,
                        void* grad_positions, void* grad_x, cudaStream_t stream);

}  // namespace rxmesh::python
