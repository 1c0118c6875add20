// What every RXMesh app shares: the error policy (bad input: one line on
// stderr, exit status 1, no partial output file), the GPU check, stage
// timers, the JSON report, and the PLY output with one vertex per INPUT
// vertex in input order.
#pragma once

#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::app {

//! Thrown when there is no CUDA device: exit status 77 (ctest's "skipped")
//! unless RXMESH_REQUIRE_GPU=1 asks for a failure (exit status 1).
struct NoGpu : Error
{
    NoGpu() : Error("no CUDA device is available") {}
};

//! Thrown by --check on a mismatch with the CPU reference: exit status 2.
struct CheckFailed : Error
{
    using Error::Error;
};

inline bool gpu_required()
{
    const char* v = std::getenv("RXMESH_REQUIRE_GPU");
    return v != nullptr && std::string(v) == "1";
}

//! The name of device 0. \throw NoGpu without one.
inline std::string require_gpu()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        throw NoGpu();
    cudaDeviceProp prop{};
    RXMESH_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    return prop.name;
}

//! Runs an app's body under the error policy; returns the exit status.
inline int run(const char* app_name, const std::function<int()>& body)
{
    try {
        return body();
    } catch (const NoGpu& e) {
        std::fprintf(stderr, "%s: %s\n", app_name, e.what());
        return gpu_required() ? 1 : 77;
    } catch (const CheckFailed& e) {
        std::fprintf(stderr, "%s: check failed: %s\n", app_name, e.what());
        return 2;
    } catch (const CudaError& e) {
        const std::string what = e.what();
        const bool oom = what.find("out of memory") != std::string::npos;
        std::fprintf(stderr, "%s: %s%s\n", app_name,
                     oom ? "the mesh is too large for the GPU's memory: " : "CUDA error: ",
                     what.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", app_name, e.what());
        return 1;
    }
}

//! Host-side checks of an input before any GPU work, so that bad input is
//! reported the same way with or without a GPU. \throw InvalidInputError.
inline void validate_input(const TriangleSoup& soup, const std::string& name)
{
    if (soup.faces.empty())
        throw InvalidInputError(name + ": the mesh is empty (no faces)");
    for (std::size_t v = 0; v < soup.positions.size(); ++v)
        for (float c : soup.positions[v])
            if (!std::isfinite(c))
                throw InvalidInputError(name + ": vertex " + std::to_string(v) +
                                        " has a non-finite coordinate (NaN or inf)");
}

//! Parses the command line; returns -1 to go on, else the exit status
//! (0 after --help, 1 with one line on stderr for a bad option).
inline int parse(CLI::App& cli, int argc, char** argv, const char* app_name)
{
    try {
        cli.parse(argc, argv);
        return -1;
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "%s: %s\n", app_name, e.what());
        return 1;
    }
}

//! A CLI11 check for options stored as float: the value must be a finite,
//! positive float (1e39 would become inf and 1e-50 would become 0).
inline CLI::Validator positive_float()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char*       end = nullptr;
            const float v   = std::strtof(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || !(v > 0))
                return "must be a positive number within float range, got " + text;
            return {};
        },
        "POSITIVE FLOAT");
}

//! Wall-clock milliseconds of a host stage (GPU stages use GpuTimer).
class Stopwatch
{
   public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    double ms() const
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start)
            .count();
    }

   private:
    std::chrono::steady_clock::time_point m_start;
};

//! An app's output files, written all or none: each is checked writable
//! before the work starts (expect), written to a temporary next to its path
//! (stage), and renamed into place only when every one was written (commit).
//! Files not committed are removed, so a failure leaves no partial output.
class Outputs
{
   public:
    Outputs() = default;
    Outputs(const Outputs&)            = delete;
    Outputs& operator=(const Outputs&) = delete;
    ~Outputs()
    {
        std::error_code ignored;
        for (const auto& tmp : m_staged)
            std::filesystem::remove(tmp, ignored);
    }

    //! \throw IOError now, not after the work, when `path` cannot be created.
    static void expect(const std::string& path)
    {
        if (path.empty())
            return;
        const std::string probe = temporary(path);
        std::FILE*        f     = std::fopen(probe.c_str(), "wb");
        if (!f)
            throw IOError("cannot write " + path);
        std::fclose(f);
        std::error_code ignored;
        std::filesystem::remove(probe, ignored);
    }

    //! Writes through `write(tmp_path)`; nothing is visible at `path` yet.
    void stage(const std::string& path, const std::function<void(const std::string&)>& write)
    {
        m_staged.push_back(temporary(path));
        m_paths.push_back(path);
        write(m_staged.back());
    }

    void commit()
    {
        for (std::size_t i = 0; i < m_staged.size(); ++i)
            std::filesystem::rename(m_staged[i], m_paths[i]);
        m_staged.clear();
        m_paths.clear();
    }

   private:
    static std::string       temporary(const std::string& path) { return path + ".partial"; }
    std::vector<std::string> m_staged, m_paths;
};

//! A JSON object built key by key (values: numbers, strings, booleans, or
//! nested objects), written in insertion order.
class Json
{
   public:
    Json& num(const std::string& key, double v)
    {
        return raw(key, std::isfinite(v) ? format(v) : std::string("null"));
    }
    Json& str(const std::string& key, const std::string& v) { return raw(key, quote(v)); }
    Json& flag(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
    Json& obj(const std::string& key, const Json& v) { return raw(key, v.text()); }
    std::string text() const { return "{" + m_body + "}"; }

    //! Writes the object to `path` (through Outputs::stage for atomicity).
    void write(const std::string& path) const
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f)
            throw IOError("cannot write " + path);
        const std::string t  = text() + "\n";
        const bool        ok = std::fwrite(t.data(), 1, t.size(), f) == t.size();
        if (std::fclose(f) != 0 || !ok)
            throw IOError("cannot write " + path);
    }

   private:
    Json& raw(const std::string& key, const std::string& value)
    {
        m_body += (m_body.empty() ? "" : ", ") + quote(key) + ": " + value;
        return *this;
    }
    static std::string format(double v)
    {
        std::ostringstream s;
        s.precision(9);
        s << v;
        return s.str();
    }
    static std::string quote(const std::string& s)
    {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\')
                out += '\\';
            if (static_cast<unsigned char>(c) >= 0x20)
                out += c;
        }
        return out + "\"";
    }
    std::string m_body;
};

//! The GPU and the mesh, for every report.
inline Json mesh_json(const RXMesh& mesh, const TriangleSoup& input)
{
    Json j;
    j.num("input_vertices", double(input.positions.size()))
        .num("input_faces", double(input.faces.size()))
        .num("vertices", mesh.num_vertices())
        .num("edges", mesh.num_edges())
        .num("faces", mesh.num_faces())
        .num("patches", mesh.num_patches());
    return j;
}

//! Per-vertex values in the mesh's global order -> one row per INPUT vertex:
//! a vertex the mesh kept (or welded) takes its global vertex's values, a
//! vertex the mesh dropped (unused) takes `fallback(i, k)`.
template <typename Fallback>
std::vector<float> to_input_vertices(const RXMesh& mesh, const std::vector<float>& global, int n,
                                     std::size_t input_vertices, Fallback fallback)
{
    const std::vector<std::uint32_t> to_global = mesh.input_vertex_to_global().to_host();
    std::vector<float>               out(input_vertices * n);
    for (std::size_t i = 0; i < input_vertices; ++i)
        for (int k = 0; k < n; ++k)
            out[i * n + k] = to_global[i] == ~0u ? fallback(i, k)
                                                 : global[std::size_t(to_global[i]) * n + k];
    return out;
}

//! Writes a binary PLY: one vertex per input vertex in input order at
//! `positions` (3 per input vertex), the input's faces, and the scalars (one
//! per input vertex). Use through Outputs::stage for atomicity.
inline void write_input_order_ply(const std::string& path, const TriangleSoup& input,
                                  const std::vector<float>& positions,
                                  const std::vector<io::VertexScalar>& scalars)
{
    TriangleSoup out;
    out.faces = input.faces;
    out.positions.resize(input.positions.size());
    for (std::size_t i = 0; i < out.positions.size(); ++i)
        out.positions[i] = {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]};
    io::write_ply(path, out, scalars);
}

}  // namespace rxmesh::app
