// An option's whole text read as one decimal integer in a range: the CLI11
// apps' validator (policy.h, integer_in) and rxmesh-info's own parser, which
// builds without CLI11. Host code, standard library only.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <string>

namespace rxmesh::app {

//! "[lo, hi]", as the messages name the range.
inline std::string range_text(long long lo, long long hi)
{
    return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

//! Whether all of `text` is one decimal integer in [lo, hi] (1e3 is not
//! one); its value in *value when it is.
inline bool integer_in_range(const std::string& text, long long lo, long long hi,
                             long long* value = nullptr)
{
    errno               = 0;
    char*           end = nullptr;
    const long long v   = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return false;
    if (value)
        *value = v;
    return true;
}

}  // namespace rxmesh::app
