// A progress line on stderr for long work: "rxmesh-remesh: remeshing 42%",
// rewritten in place, at most ten times a second, and erased when the work
// ends. Only on a terminal (a pipe or a log file gets nothing) and not with
// --quiet, so that scripted runs and the tests see only the apps' results.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace rxmesh::app {

class Progress
{
   public:
    using Clock = std::chrono::steady_clock;

    Progress(const char* app, bool quiet) : m_app(app), m_on(!quiet && isatty(fileno(stderr)))
    {
    }
    Progress(const Progress&)            = delete;
    Progress& operator=(const Progress&) = delete;
    ~Progress() { clear(); }

    //! Shows `stage` with `done` in [0, 1] (negative: no percent).
    void show(const std::string& stage, double done = -1)
    {
        if (!m_on)
            return;
        const auto now = Clock::now();
        if (stage == m_stage && now - m_last < std::chrono::milliseconds(100))
            return;
        m_stage = stage, m_last = now;
        std::string line = std::string(m_app) + ": " + stage;
        if (done >= 0)
            line += " " + std::to_string(int(100 * std::clamp(done, 0.0, 1.0))) + "%";
        write(line);
    }

    //! Erases the line (before results are printed).
    void clear()
    {
        if (m_on && m_width > 0)
            write("");
        m_stage.clear();
    }

   private:
    //! Overwrites the line in place (spaces over a longer previous one);
    //! an empty line leaves the cursor at the start of a blank line.
    void write(const std::string& line)
    {
        const std::size_t pad = m_width > line.size() ? m_width - line.size() : 0;
        std::fprintf(stderr, "\r%s%s%s", line.c_str(), std::string(pad, ' ').c_str(),
                     line.empty() ? "\r" : "");
        std::fflush(stderr);
        m_width = line.size();
    }

    const char*       m_app;
    bool              m_on;
    std::string       m_stage;
    std::size_t       m_width = 0;
    Clock::time_point m_last{};
};

}  // namespace rxmesh::app
