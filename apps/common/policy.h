// The apps' error policy: bad input or a bad option is one line on stderr
// and exit status 1 (no partial output file: outputs.h), a failed --check is
// exit status 2, no GPU is exit status 77 (ctest's "skipped") unless
// RXMESH_REQUIRE_GPU=1 asks for a failure.
#pragma once

#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <type_traits>

#include "cli_parse.h"
#include "integer_text.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::app {

//! Thrown when there is no CUDA device.
struct NoGpu : Error
{
    //! `hint`: what the user can do instead, appended after a semicolon.
    explicit NoGpu(const std::string& hint = "")
        : Error("no CUDA device is available" + (hint.empty() ? "" : "; " + hint))
    {
    }
};

//! Thrown by --check on a mismatch with the CPU reference.
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
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) throw NoGpu();
    cudaDeviceProp prop{};
    RXMESH_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    return prop.name;
}

//! require_gpu(), then the device's context created, so that the first GPU
//! call of the app does not pay for it.
inline std::string start_gpu()
{
    std::string name = require_gpu();
    RXMESH_CHECK_CUDA(cudaFree(nullptr));
    return name;
}

//! The exit statuses of the policy above, for --help.
inline constexpr const char* kExitStatusHelp =
    "Exit status: 0 done; 1 bad input or option, nothing written; 2 --check failed; 3 a limit "
    "stopped the work (the apps with one say so above); 77 no CUDA device (1 with "
    "RXMESH_REQUIRE_GPU=1).";

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
        const bool        oom  = what.find("out of memory") != std::string::npos;
        std::fprintf(
            stderr, "%s: %s%s\n", app_name,
            oom ? "the mesh is too large for the GPU's memory: " : "CUDA error: ", what.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", app_name, e.what());
        return 1;
    }
}

//! Parses the command line; returns -1 to go on, else the exit status
//! (0 after --help, 1 with one line on stderr for a bad option).
inline int parse(CLI::App& cli, int argc, char** argv, const char* app_name)
{
    return cli::parse_command_line(cli, argc, argv, app_name, 1);
}

//! A CLI11 check that the whole text is one number of type T (float or
//! double, read as strtof / strtod would) for which `ok` holds; otherwise
//! "must be WHAT, got TEXT". `label` names the kind in --help.
template <typename T, typename Ok>
CLI::Validator number_where(const std::string& label, const std::string& what, Ok ok)
{
    return CLI::Validator(
        [what, ok](std::string& text) -> std::string {
            char*   end = nullptr;
            const T v   = std::is_same_v<T, float> ? T(std::strtof(text.c_str(), &end))
                                                   : T(std::strtod(text.c_str(), &end));
            if (end == text.c_str() || *end != '\0' || !ok(v))
                return "must be " + what + ", got " + text;
            return {};
        },
        label);
}

//! A CLI11 check that the whole text is one integer (decimal) in [lo, hi];
//! otherwise "must be an integer in [lo, hi], got TEXT" (1e3 is not one).
inline CLI::Validator integer_in(long long lo, long long hi)
{
    const std::string range = range_text(lo, hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            return integer_in_range(text, lo, hi) ? std::string()
                                                  : "must be an integer in " + range + ", got " + text;
        },
        "INT in " + range);
}

//! A finite, positive double (for tolerances).
inline CLI::Validator positive_double()
{
    return number_where<double>("POSITIVE NUMBER", "a positive number",
                                [](double v) { return std::isfinite(v) && v > 0; });
}

//! For options stored as float: a non-negative float (within float range:
//! 1e39 would become inf); `what` as the error message names it.
inline CLI::Validator non_negative_float(
    const std::string& what = "a non-negative number within float range")
{
    return number_where<float>("NON-NEGATIVE FLOAT", what,
                               [](float v) { return std::isfinite(v) && v >= 0; });
}

//! The option `name` bound to `value`, with `help`, its check and its
//! default shown in --help.
template <typename T>
CLI::Option* add_option(CLI::App& cli, const std::string& name, T& value, const std::string& help,
                        const CLI::Validator& check)
{
    return cli.add_option(name, value, help)->check(check)->capture_default_str();
}

//! For options stored as float: a finite, positive float (1e39 would become
//! inf and 1e-50 would become 0).
inline CLI::Validator positive_float()
{
    return number_where<float>("POSITIVE FLOAT", "a positive number within float range",
                               [](float v) { return std::isfinite(v) && v > 0; });
}

}  // namespace rxmesh::app
