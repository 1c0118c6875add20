// printf-style text as a std::string, for the apps' messages and summary
// parts that are built before they are printed or thrown.
#pragma once

#include <cstdio>
#include <string>

namespace rxmesh::app {

//! `format` (a printf format) with `args`, whole (never cut at a buffer's size).
template <typename... Args>
std::string formatted(const char* format, Args... args)
{
    const int   size = std::snprintf(nullptr, 0, format, args...);
    std::string text(std::size_t(size > 0 ? size : 0) + 1, '\0');
    std::snprintf(&text[0], text.size(), format, args...);
    text.resize(text.size() - 1);
    return text;
}

}  // namespace rxmesh::app
