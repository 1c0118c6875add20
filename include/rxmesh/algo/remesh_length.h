// The target edge length L of isotropic remeshing as a user asks for it
// (algo/remesh.h takes L itself): a length, a multiple of the input's mean
// edge length, or neither (the mean itself, as CGAL and PMP), checked
// before any work. Host code; the mean edge length comes from the caller
// (mean_edge_length(DynamicMesh&) on the GPU, reference::mean_edge_length
// on the host), so both paths choose L the same way.
//
//   const TargetLength L = choose_target_length(mean_edge_length(mesh), num_faces,
//                                               {.relative = 0.5}, "bunny.obj");
//   options.target_length = L.value;
#pragma once

#include <cstddef>
#include <string>

namespace rxmesh {

//! How L is asked for: `length` > 0 is L itself; else `relative` > 0 is L
//! over the input's mean edge length; else L is that mean.
struct TargetLengthRequest
{
    double      length   = 0;
    double      relative = 0;
    //! What the caller calls `length`, for the messages and TargetLength::source.
    std::string length_name = "--length";
};

//! L as chosen, with what it came from.
struct TargetLength
{
    double      value           = 0;
    double      input_mean_edge = 0;
    std::string source;  //!< how it was chosen, in words ("--length", ...)
};

//! A mesh remeshed at L has about faces x (mean edge / L)^2 faces; beyond
//! this its slots would not fit 32-bit ids.
constexpr double kMaxRemeshedFaces = 2147483648.0;

//! L for a mesh of `input_faces` faces whose mean edge length is
//! `input_mean_edge`. \throw InvalidInputError, naming `what` (the input),
//! for a request below 0, an L that is not finite or not positive (edges
//! all of length 0 and no `length` given), or one that would make more than
//! kMaxRemeshedFaces faces.
TargetLength choose_target_length(double input_mean_edge, std::size_t input_faces,
                                  const TargetLengthRequest& request, const std::string& what);

}  // namespace rxmesh
