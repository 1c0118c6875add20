#include "rxmesh/algo/remesh_length.h"

#include <cmath>
#include <cstdio>

#include "rxmesh/core/error.h"

namespace rxmesh {
namespace {

//! A figure in a message: three significant digits.
std::string short_number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

TargetLength requested(double input_mean_edge, const TargetLengthRequest& request)
{
    TargetLength t{input_mean_edge, input_mean_edge, "the input's mean edge length"};
    if (request.length > 0) {
        t.value  = request.length;
        t.source = request.length_name;
    } else if (request.relative > 0) {
        t.value  = request.relative * input_mean_edge;
        t.source = short_number(request.relative) + " x the input's mean edge length";
    }
    return t;
}

}  // namespace

TargetLength choose_target_length(double input_mean_edge, std::size_t input_faces,
                                  const TargetLengthRequest& request, const std::string& what)
{
    if (!(request.length >= 0))
        throw InvalidInputError(what + ": " + request.length_name + " " +
                                short_number(request.length) + " is below 0 or not a number");
    if (!(request.relative >= 0))
        throw InvalidInputError(what + ": the ratio to the mean edge length " +
                                short_number(request.relative) + " is below 0 or not a number");
    const TargetLength t = requested(input_mean_edge, request);
    if (!std::isfinite(t.value))
        throw InvalidInputError(what + ": the target edge length " + short_number(t.value) +
                                " is not finite");
    if (!(t.value > 0))
        throw InvalidInputError(what +
                                ": the input's edges all have length 0, so there is no "
                                "mean edge length to take L from: give " + request.length_name);
    const double ratio    = t.input_mean_edge / t.value;
    const double expected = double(input_faces) * ratio * ratio;
    if (expected > kMaxRemeshedFaces)
        throw InvalidInputError(what + ": the target edge length " + short_number(t.value) +
                                " would make about " + short_number(expected) + " faces (" +
                                std::to_string(input_faces) + " x (mean edge " +
                                short_number(t.input_mean_edge) + " / L)^2), beyond 32-bit ids");
    return t;
}

}  // namespace rxmesh
