// An app's output files, written all or none; the mesh formats they are
// written in (by the extension).
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"

namespace rxmesh::app {

//! Each output is checked writable before the work starts (expect), written
//! to a temporary next to its path (stage), and renamed into place only when
//! every one was written (commit). Files not committed are removed, so a
//! failure leaves no partial output.
class Outputs
{
   public:
    Outputs()                          = default;
    Outputs(const Outputs&)            = delete;
    Outputs& operator=(const Outputs&) = delete;
    ~Outputs()
    {
        std::error_code ignored;
        for (const auto& tmp : m_staged) std::filesystem::remove(tmp, ignored);
    }

    //! \throw IOError now, not after the work, when `path` cannot be created
    //! (a folder there included). An empty path (the output was not asked
    //! for) passes.
    static void expect(const std::string& path)
    {
        if (path.empty()) return;
        std::error_code no_folder;
        if (std::filesystem::is_directory(path, no_folder))
            throw IOError("cannot write " + path + ": it is a folder; name a file");
        const std::string probe = staging_path(path);
        std::FILE*        f     = std::fopen(probe.c_str(), "wb");
        if (!f) throw IOError("cannot write " + path);
        std::fclose(f);
        std::error_code ignored;
        std::filesystem::remove(probe, ignored);
    }

    //! Writes through `write(tmp_path)`; nothing is visible at `path` yet.
    //! Does nothing for an empty path.
    void stage(const std::string& path, const std::function<void(const std::string&)>& write)
    {
        if (path.empty()) return;
        m_staged.push_back(staging_path(path));
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

    //! Where stage() writes `path` before commit() renames it.
    static std::string staging_path(const std::string& path) { return path + ".partial"; }

   private:
    std::vector<std::string> m_staged, m_paths;
};

//! What is wrong with `path` as the mesh output of `app` ("" when nothing):
//! the format comes from the extension, PLY, or OBJ too when `writes_obj`,
//! and is refused before any work.
inline std::string mesh_format_error(const std::string& path, const std::string& app,
                                     bool writes_obj)
{
    bool writable = false;
    try {
        const io::Format f = io::format_from_path(path);
        writable           = f == io::Format::Ply || (writes_obj && f == io::Format::Obj);
    } catch (const Error&) {  // no extension, or one of no format: not writable either
    }
    if (writable) return "";
    return path + ": " + app + " writes " +
           (writes_obj ? "PLY or OBJ: name the output *.ply or *.obj"
                       : "PLY only: name the output *.ply");
}

//! Writes `mesh` to `tmp` in the format of `path`'s extension (tmp is the
//! temporary that Outputs renames to path).
inline void write_mesh_as(const std::string& tmp, const std::string& path, const TriangleSoup& mesh)
{
    if (io::format_from_path(path) == io::Format::Obj)
        io::write_obj(tmp, mesh);
    else
        io::write_ply(tmp, mesh);
}

}  // namespace rxmesh::app
