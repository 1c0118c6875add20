// choose_target_length (algo/remesh_length.h): L as the user asks for it,
// and the requests refused before any work, with the input named.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "rxmesh/algo/remesh_length.h"
#include "rxmesh/core/error.h"

namespace rxmesh {
namespace {

//! The message of the InvalidInputError `f` throws ("" if none).
template <typename F>
std::string refusal(F&& f)
{
    try {
        f();
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    return "";
}

TEST(RemeshLength, TheMeanUnlessALengthOrARatioIsGiven)
{
    const TargetLength mean = choose_target_length(0.25, 1000, {}, "in.obj");
    EXPECT_EQ(mean.value, 0.25);
    EXPECT_EQ(mean.input_mean_edge, 0.25);
    EXPECT_EQ(mean.source, "the input's mean edge length");

    const TargetLength length = choose_target_length(0.25, 1000, {0.1, 3.0}, "in.obj");
    EXPECT_EQ(length.value, 0.1);  // --length wins over a ratio
    EXPECT_EQ(length.source, "--length");

    const TargetLength ratio = choose_target_length(0.25, 1000, {0, 0.5}, "in.obj");
    EXPECT_EQ(ratio.value, 0.125);
    EXPECT_EQ(ratio.input_mean_edge, 0.25);
    EXPECT_EQ(ratio.source, "0.5 x the input's mean edge length");
}

TEST(RemeshLength, NoMeanToTakeLFrom)
{
    const std::string why = refusal([] { choose_target_length(0, 12, {}, "flat.off"); });
    EXPECT_NE(why.find("flat.off"), std::string::npos) << why;
    EXPECT_NE(why.find("give --length"), std::string::npos) << why;
    // the caller's name for the length, in the message and the source
    const std::string named =
        refusal([] { choose_target_length(0, 12, {0, 0, "target_length"}, "remesh"); });
    EXPECT_NE(named.find("give target_length"), std::string::npos) << named;
    EXPECT_EQ(choose_target_length(1, 12, {0.5, 0, "target_length"}, "remesh").source,
              "target_length");
    // a length given needs no mean (no faces are expected to grow from 0)
    EXPECT_EQ(choose_target_length(0, 12, {0.5, 0}, "flat.off").value, 0.5);
}

TEST(RemeshLength, TooManyFacesForThirtyTwoBitIds)
{
    // 1000 faces x (1 / L)^2: L = 1/1000 asks for 1e9 faces, L = 1/2000 for 4e9
    EXPECT_NO_THROW(choose_target_length(1.0, 1000, {1e-3, 0}, "in.obj"));
    const std::string why = refusal([] { choose_target_length(1.0, 1000, {5e-4, 0}, "in.obj"); });
    EXPECT_NE(why.find("in.obj"), std::string::npos) << why;
    EXPECT_NE(why.find("4e+09 faces"), std::string::npos) << why;
    EXPECT_NE(why.find("beyond 32-bit ids"), std::string::npos) << why;
    EXPECT_NE(refusal([] { choose_target_length(1.0, 1000, {0, 5e-4}, "in.obj"); }), "");
}

TEST(RemeshLength, RequestsBelowZeroOrNotFiniteAreRefused)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(refusal([] { choose_target_length(1.0, 10, {-1, 0}, "in.obj"); }),
              "in.obj: --length -1 is below 0 or not a number");
    EXPECT_NE(refusal([] { choose_target_length(1.0, 10, {0, -2}, "in.obj"); }), "");
    EXPECT_NE(refusal([&] { choose_target_length(1.0, 10, {nan, 0}, "in.obj"); }), "");
    EXPECT_NE(refusal([&] { choose_target_length(1.0, 10, {inf, 0}, "in.obj"); }), "");
    EXPECT_NE(refusal([&] { choose_target_length(inf, 10, {}, "in.obj"); }), "");
}

}  // namespace
}  // namespace rxmesh
