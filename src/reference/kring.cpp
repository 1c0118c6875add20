#include "rxmesh/reference/kring.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rxmesh::reference {

std::vector<std::vector<std::uint32_t>> kring(const Csr& vv, std::uint32_t v, int k)
{
    if (k < 0)
        throw std::invalid_argument("reference::kring: k must be >= 0, got " + std::to_string(k));
    return grow(
        vv, v, [](std::uint32_t) { return true; }, k);
}

std::vector<std::vector<std::uint32_t>> grow(const Csr& vv, std::uint32_t v,
                                             const std::function<bool(std::uint32_t)>& accept,
                                             int                                       max_rings)
{
    if (v >= vv.rows())
        throw std::invalid_argument("reference::grow: vertex " + std::to_string(v) +
                                    " out of range (" + std::to_string(vv.rows()) + " rows)");
    if (max_rings < 0)
        throw std::invalid_argument("reference::grow: max_rings must be >= 0");
    std::vector<bool>                       entered(vv.rows(), false);
    std::vector<std::vector<std::uint32_t>> rings = {{v}};
    entered[v]                                    = true;
    for (int d = 1; d <= max_rings; ++d) {
        std::vector<std::uint32_t> next;
        for (const std::uint32_t u : rings.back())
            for (std::uint32_t e = vv.offsets[u]; e < vv.offsets[u + 1]; ++e) {
                const std::uint32_t w = vv.indices[e];
                if (!entered[w] && accept(w)) {
                    entered[w] = true;
                    next.push_back(w);
                }
            }
        if (next.empty())
            break;
        std::sort(next.begin(), next.end());
        rings.push_back(std::move(next));
    }
    return rings;
}

}  // namespace rxmesh::reference
