// What the apps that change the topology through DynamicMesh and write a new
// mesh share (rxmesh-remesh, rxmesh-simplify): the input on the device with
// its BVH, the sampled Hausdorff distance of the result to the input, and the
// --check steps every such app takes (valid and manifold as the input was,
// the distance against the serial oracle's; OracleCheck: its lines and
// report), --min-angle. Their run is new_mesh_run.h's, what they print and
// report new_mesh_summary.h's, their skeleton new_mesh_app.h (-o: app.h's
// stage_new_mesh).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "app.h"
#include "format.h"
#include "json.h"
#include "policy.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/boundary_check.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/spatial/bvh.h"
#include "rxmesh/spatial/hausdorff.h"

namespace rxmesh::app {

//! A topology pass's progress callback (RemeshOptions::progress,
//! SimplifyOptions::progress) that shows `stage` on the session's progress
//! line; a share done < 0 is the untimed warm-up run.
inline std::function<void(double)> progress_line(const Session& s, const char* stage)
{
    return [&s, stage](double done) {
        if (done < 0)
            s.progress().show("warm-up run (untimed)");
        else
            s.progress().show(stage, done);
    };
}

//! The input surface on the device (its own copy: the DynamicMesh changes)
//! with a BVH over it: the other side of every distance.
class InputSurface
{
   public:
    //! \pre the soup has a face (validate_input).
    explicit InputSurface(const TriangleSoup& soup)
        : m_positions(3 * soup.positions.size()), m_faces(3 * soup.faces.size())
    {
        static_assert(
            sizeof(Vec3f) == 3 * sizeof(float) && sizeof(Triangle) == 3 * sizeof(std::uint32_t),
            "TriangleSoup holds packed triples");
        m_positions.upload(soup.positions.front().data(), m_positions.size());
        m_faces.upload(soup.faces.front().data(), m_faces.size());
        m_bvh =
            std::make_unique<TriangleBvh>(m_positions.data(), std::uint32_t(soup.positions.size()),
                                          m_faces.data(), std::uint32_t(soup.faces.size()));
    }

    const TriangleBvh& bvh() const { return *m_bvh; }

   private:
    DeviceBuffer<float>          m_positions;
    DeviceBuffer<std::uint32_t>  m_faces;
    std::unique_ptr<TriangleBvh> m_bvh;  // reads the two buffers above
};

//! The sampled Hausdorff distance between a result and its input, in the
//! input's units and relative to the input's bounding-box diagonal.
struct DistanceToInput
{
    //! from_a: the result's samples to the input; from_b: the input's to the
    //! result. NaN when the result has no face (nothing to measure).
    SampledHausdorff h{std::nan(""), std::nan(""), std::nan(""), std::nan("")};
    double           diagonal = 0;

    double relative(double d) const { return diagonal > 0 ? d / diagonal : std::nan(""); }

    Json to_json() const
    {
        Json j;
        j.num("output_to_input", h.from_a)
            .num("input_to_output", h.from_b)
            .num("symmetric", h.symmetric())
            .num("mean_output_to_input", h.mean_from_a)
            .num("mean_input_to_output", h.mean_from_b)
            .num("bounding_box_diagonal", diagonal)
            .num("output_to_input_relative", relative(h.from_a))
            .num("input_to_output_relative", relative(h.from_b))
            .num("symmetric_relative", relative(h.symmetric()));
        return j;
    }

    void print() const
    {
        std::printf(
            "  Hausdorff distance to the input (sampled): output->input %.4g, "
            "input->output %.4g, symmetric %.4g (%.3g x the bounding-box diagonal)\n",
            h.from_a, h.from_b, h.symmetric(), relative(h.symmetric()));
    }
};

inline DistanceToInput distance_to_input(const CompactMesh& result, const InputSurface& input,
                                         double input_diagonal)
{
    DistanceToInput d;
    d.diagonal = input_diagonal;
    if (result.num_faces == 0) return d;
    const TriangleBvh output(result.positions.data(), result.num_vertices, result.faces.data(),
                             result.num_faces);
    d.h = sampled_hausdorff(output, input.bvh());  // a: the result, b: the input
    return d;
}

//! What --check requires of a result given what the input was.
struct MeshState
{
    bool        valid    = false;
    bool        manifold = false;
    std::string first_violation;
};

inline MeshState state_of(DynamicMesh& mesh)
{
    const DynamicValidation v = mesh.validate();
    return {v.ok(), mesh.is_manifold(), v.first};
}

//! The result valid and manifold where the input was (an input that already
//! breaks either is not the algorithm's fault). \throw CheckFailed.
inline void require_state_kept(const MeshState& input, const MeshState& result)
{
    if (input.valid && !result.valid)
        throw CheckFailed("the result is not a valid mesh: " + result.first_violation);
    if (input.manifold && !result.manifold)
        throw CheckFailed("the input is manifold, the result is not");
}

//! --device cpu runs the serial reference that --check compares the GPU
//! with: refused there before any work, it would compare the reference with
//! itself. \throw InvalidInputError.
inline void refuse_oracle_check_on_cpu(const CommonOptions& o)
{
    if (o.device == "cpu" && o.check)
        throw InvalidInputError(
            "--check compares the GPU with the serial CPU reference: not with --device cpu");
}

//! The GPU result's symmetric distance to the input at most `factor` x the
//! serial oracle's + 1e-6 x the diagonal (float against double). Returns
//! the bound. \throw CheckFailed.
inline double require_distance_near_oracle(const DistanceToInput& gpu, double oracle, double factor)
{
    const double bound = factor * oracle + 1e-6 * gpu.diagonal;
    if (!(gpu.h.symmetric() <= bound)) {
        char why[256];
        std::snprintf(why, sizeof why,
                      "the symmetric Hausdorff distance to the input is %.6g, above %.3g x the "
                      "serial reference's %.6g + 1e-6 x the diagonal (%.6g)",
                      gpu.h.symmetric(), factor, oracle, bound);
        throw CheckFailed(why);
    }
    return bound;
}

//! --min-angle of an app whose `moves` change faces: the sliver guard.
template <typename T>
void add_min_angle_option(CLI::App& cli, T& degrees, const std::string& moves)
{
    cli.add_option("--min-angle", degrees,
                   "the sliver guard: no " + moves +
                       " makes a face with an angle below this many degrees unless the faces it "
                       "replaces had one (0: off)")
        ->check(CLI::Range(0.0, 59.0))
        ->capture_default_str();
}

//! The serial oracle's distance part of --check: the symmetric distance of
//! its result to the input and the bound on the GPU result's.
struct OracleDistance
{
    bool   ran      = false;  // up to the app's maximum of input faces
    double distance = 0, bound = 0;

    //! The oracle's `result` of input `in` against the GPU's `gpu` (within
    //! `factor`: require_distance_near_oracle). \throw CheckFailed.
    void compare(const TriangleSoup& result, const TriangleSoup& in, const DistanceToInput& gpu,
                 double factor)
    {
        ran      = true;
        distance = reference::hausdorff_fast(result, in).symmetric();
        bound    = require_distance_near_oracle(gpu, distance, factor);
    }

    //! The end of the report's "check": whether the oracle ran (up to
    //! `max_faces` input faces), `own` (the app's figures of the oracle's
    //! result, when it ran), the distance and the bound, then "passed".
    Json& end_check_json(Json& check, std::size_t max_faces, const Json& own) const
    {
        check.flag("reference_ran", ran).num("reference_max_faces", double(max_faces));
        if (ran)
            check.append(own)
                .num("reference_hausdorff_symmetric", distance)
                .num("hausdorff_bound", bound);
        return check.flag("passed", true);  // a failed check exits 2 and writes nothing
    }
};

//! The line of a --check whose oracle did not run on `input_faces`.
inline void print_oracle_skipped(std::size_t input_faces, std::size_t max_faces)
{
    std::printf(
        "  serial reference skipped: %zu input faces, more than %zu (the serial "
        "oracle is too slow)\n",
        input_faces, max_faces);
}


inline void print_memory(const DynamicMemory& m)
{
    std::printf(
        "  device memory: mesh %.2f MiB, connectivity %.2f MiB, workspace %.2f MiB, "
        "peak %.2f MiB\n",
        m.mesh / 1048576.0, m.connectivity / 1048576.0, m.workspace / 1048576.0,
        m.peak / 1048576.0);
}

inline Json memory_json(const DynamicMemory& m)
{
    Json j;
    j.num("mesh", double(m.mesh))
        .num("connectivity", double(m.connectivity))
        .num("workspace", double(m.workspace))
        .num("peak", double(m.peak));
    return j;
}

//! The first keys of such an app's "check": whether the input and the
//! result are valid and manifold.
inline Json state_check_json(const MeshState& input, const MeshState& result)
{
    Json check;
    check.flag("input_valid", input.valid)
        .flag("valid", result.valid)
        .flag("input_manifold", input.manifold)
        .flag("manifold", result.manifold);
    return check;
}

//! The result's distance to the input with the serial tree (the GPU path
//! samples on the GPU; this one has no means: they stay NaN, null in the
//! report).
inline DistanceToInput distance_on_cpu(const TriangleSoup& result, const TriangleSoup& in)
{
    DistanceToInput d;
    d.diagonal = bounding_box_diagonal(in.positions);
    if (result.faces.empty()) return d;
    const reference::HausdorffDistance h = reference::hausdorff_fast(result, in);
    d.h.from_a = h.from_a;  // a: the result, b: the input, as the GPU path
    d.h.from_b = h.from_b;
    return d;
}

//! The --check of an app that makes a new mesh, as it went: the result
//! valid and manifold where the input was, the app's own requirements, and
//! up to `max_faces` input faces the distance against the serial oracle's;
//! what its summary lines and the report's "check" say of it.
struct OracleCheck
{
    std::size_t    max_faces = 0;  // the oracle runs up to this many input faces
    Json           own;            // the app's keys of the result, after the state's
    std::string    own_line;       // printed after "check passed: valid, manifold"
    OracleDistance oracle;
    Json           oracle_own;    // the app's keys of the oracle's result
    std::string    oracle_line;   // printed after "serial reference: ", before the distance
    std::string    skipped_line;  // why the oracle did not run on an input within max_faces

    //! The start of `run`'s check (NewMeshRun: input_state, state).
    //! \throw CheckFailed (require_state_kept).
    template <typename Run>
    static OracleCheck begin(const Run& run, std::size_t max_faces)
    {
        require_state_kept(run.input_state, run.state);
        OracleCheck c;
        c.max_faces = max_faces;
        return c;
    }

    //! "  check passed: ..." and the oracle's line, or why it did not run.
    void print(const MeshState& state, const DistanceToInput& gpu, std::size_t input_faces) const
    {
        std::printf("  check passed: %s, %s%s\n", state.valid ? "valid" : "not valid, as the input",
                    state.manifold ? "manifold" : "not manifold, as the input", own_line.c_str());
        if (oracle.ran)
            std::printf(
                "  serial reference: %s, symmetric Hausdorff %.4g (the GPU's %.4g <= %.4g)\n",
                oracle_line.c_str(), oracle.distance, gpu.h.symmetric(), oracle.bound);
        else if (input_faces > max_faces)
            print_oracle_skipped(input_faces, max_faces);
        else
            std::printf("%s", skipped_line.c_str());
    }

    //! The output's boundary within `tolerance` x L of the input's, with as
    //! many loops, added to own and own_line. \throw CheckFailed.
    void require_boundary_kept(const TriangleSoup& in, const TriangleSoup& out, double tolerance,
                               double L)
    {
        const reference::BoundaryCheck b = reference::check_boundary(in, out, tolerance * L);
        if (!b.ok()) throw CheckFailed(b.first);
        own.num("input_boundary_vertices", double(b.input_boundary_vertices))
            .num("output_boundary_vertices", double(b.output_boundary_vertices))
            .num("boundary_loops", double(b.output_loops))
            .num("boundary_max_distance", b.max_distance)
            .num("boundary_tolerance", tolerance * L);
        own_line += formatted(
            "; boundary of %llu loops within %.2f L of the input's (%llu vertices, %llu before)",
            (unsigned long long)b.output_loops, tolerance,
            (unsigned long long)b.output_boundary_vertices,
            (unsigned long long)b.input_boundary_vertices);
    }

    //! The report's "check" of a result in `state` from an input in `input`.
    Json json(const MeshState& input, const MeshState& state) const
    {
        Json check = state_check_json(input, state);
        check.append(own);
        return oracle.end_check_json(check, max_faces, oracle_own);
    }
};

}  // namespace rxmesh::app
