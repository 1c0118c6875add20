// The heat method's guard against underflow, shared by algo/heat_geodesic.h
// and its serial reference so both take the same steps. Plain C++.
//
// Far from the sources the heat of (M + t L) u = delta falls by a constant
// factor per sqrt(t), below the smallest double on a component many sqrt(t)
// across; where cotangent weights are negative (obtuse triangles: no
// maximum principle) the far heat can even come out negative (CGAL's
// armadillo refined to 208K faces has 69 such vertices at t = h^2, none at
// 4 h^2). Two remedies, the cheaper first:
//   - scale the right-hand side so the largest heat is kHeatTop: the system
//     is linear, so one more solve (no refactor) gains up to ~290 decades
//     and leaves t, the method's accuracy, alone;
//   - raise t (x kTimeStepRaise, refactor), which smooths the distances
//     within a few sqrt(t) of the sources, and lifts negative heat.
#pragma once

#include <cmath>
#include <cstdint>

namespace rxmesh {

//! Heat not above this has lost digits (doubles go subnormal near 2e-308).
inline constexpr double kHeatFloor = 1e-290;
//! The largest heat a rescaled right-hand side aims at: the factor's
//! intermediate values stay far from overflow.
inline constexpr double kHeatTop = 1e250;
//! Above this (or not finite) the heat is rescaled down before anything else.
inline constexpr double kHeatCeiling = 1e300;
//! A rescale is only worth a solve when it lifts the heat this much.
inline constexpr double        kMinRescale        = 1e6;
//! x 4 (sqrt(t), the smoothing's width, x 2) rather than more: a raise is
//! only needed where the heat is lost, and each costs accuracy everywhere.
inline constexpr double        kTimeStepRaise     = 4;
inline constexpr std::uint32_t kMaxTimeStepRaises = 16;  // t x 4^16 at most
//! Solves a query may take: each raise may be followed by a rescale.
inline constexpr std::uint32_t kMaxHeatPasses = 2 * (kMaxTimeStepRaises + 2);

enum class HeatStep
{
    done,     // every reached vertex above kHeatFloor (or nothing left to try)
    rescale,  // solve again with the right-hand side scaled (rescaled_heat)
    raise     // raise t, refactor, solve again
};

//! What to do after a heat solve whose largest reached heat is `largest` and
//! `low` reached vertices are not above kHeatFloor, `raises` raises so far.
inline HeatStep next_heat_step(double largest, std::uint32_t low, std::uint32_t raises)
{
    if (!(largest <= kHeatCeiling)) return HeatStep::rescale;
    if (low == 0) return HeatStep::done;
    if (largest * kMinRescale < kHeatTop) return HeatStep::rescale;
    return raises < kMaxTimeStepRaises ? HeatStep::raise : HeatStep::done;
}

//! The right-hand side's scale that brings `largest` (solved at `scale`) to
//! kHeatTop; 1 when `largest` says nothing (0 or not finite).
inline double rescaled_heat(double scale, double largest)
{
    return largest > 0 && std::isfinite(largest) ? scale * (kHeatTop / largest) : 1.0;
}

}  // namespace rxmesh
