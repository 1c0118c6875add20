// Where the tests find real meshes, and helpers to list them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"

namespace rxmesh::test {

//! Root of libcgal-demo's extracted data folder ("" when not installed).
inline std::string cgal_data_dir() { return RXMESH_CGAL_MESHES; }
//! assimp-testmodels' model folder (may not exist).
inline std::string assimp_models_dir() { return RXMESH_ASSIMP_MODELS; }
//! A scratch folder for files the tests write.
inline std::string tmp_dir() { return RXMESH_TEST_TMP; }

//! Every file under `root` with an extension in `exts` (lower case, with the
//! dot), sorted for reproducible test order. Empty when root is missing.
inline std::vector<std::string> list_files(const std::string&              root,
                                           const std::vector<std::string>& exts)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    if (root.empty() || !fs::exists(root))
        return out;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file())
            continue;
        std::string ext = entry.path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
        if (std::find(exts.begin(), exts.end(), ext) != exts.end())
            out.push_back(entry.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

inline std::vector<std::string> mesh_extensions()
{
    return {".obj", ".off", ".ply", ".stl"};
}

//! Every mesh file of libcgal-demo, then of assimp-testmodels.
inline std::vector<std::string> real_mesh_files()
{
    std::vector<std::string> files = list_files(cgal_data_dir(), mesh_extensions());
    const auto               assimp = list_files(assimp_models_dir(), mesh_extensions());
    files.insert(files.end(), assimp.begin(), assimp.end());
    return files;
}

//! libcgal-demo's files under data/meshes with an extension in `exts`.
inline std::vector<std::string> cgal_mesh_files(const std::vector<std::string>& exts)
{
    return list_files(cgal_data_dir() + "/meshes", exts);
}

//! The named files of libcgal-demo's data folder (paths below it); none
//! when the package is not installed.
inline std::vector<std::string> cgal_files(const std::vector<std::string>& names)
{
    std::vector<std::string> files;
    if (cgal_data_dir().empty())
        return files;
    for (const auto& name : names) files.push_back(cgal_data_dir() + "/" + name);
    return files;
}

//! Which of the meshes a loop over files visits.
struct MeshLimits
{
    std::size_t max_faces  = SIZE_MAX;  // larger meshes are passed over
    bool        keep_empty = false;     // visit meshes that read to no face too
    int         most       = INT_MAX;   // how many it visits at the most
};

//! Calls visit(file, soup), under a trace of the file, for each file of
//! `files` that reads (unreadable files are the I/O tests' business) and is
//! within `limits`, in order, until a visit that returns a bool returns
//! false; returns how many it visited.
template <typename Visit>
int for_each_mesh_file(const std::vector<std::string>& files, MeshLimits limits, Visit&& visit)
{
    int visited = 0;
    for (const auto& file : files) {
        if (visited == limits.most) break;
        TriangleSoup soup;
        try {
            soup = ::rxmesh::io::read(file);
        } catch (const ::rxmesh::Error&) {
            continue;
        }
        if (soup.faces.size() > limits.max_faces) continue;
        if (soup.faces.empty() && !limits.keep_empty) continue;
        ++visited;
        SCOPED_TRACE(file);
        if constexpr (std::is_void_v<decltype(visit(file, soup))>)
            visit(file, soup);
        else if (!visit(file, soup))
            break;
    }
    return visited;
}

//! for_each_mesh_file over the named files of libcgal-demo's data folder
//! (cgal_files(names)), whatever their size; a file that does not read is not
//! in this version of the package.
template <typename Visit>
int for_each_cgal_file(const std::vector<std::string>& names, Visit&& visit)
{
    return for_each_mesh_file(cgal_files(names), {SIZE_MAX, true}, std::forward<Visit>(visit));
}

//! for_each_mesh_file over real_mesh_files().
template <typename Visit>
int for_each_real_mesh(MeshLimits limits, Visit&& visit)
{
    return for_each_mesh_file(real_mesh_files(), limits, std::forward<Visit>(visit));
}

//! for_each_mesh_file over real_mesh_files(), meshes of 1 to max_faces faces.
template <typename Visit>
int for_each_real_mesh(std::size_t max_faces, Visit&& visit)
{
    return for_each_real_mesh(MeshLimits{max_faces}, std::forward<Visit>(visit));
}

}  // namespace rxmesh::test

//! In a test body: skips the test where neither package of real meshes is
//! installed.
#define RXMESH_SKIP_WITHOUT_REAL_MESHES()                                                    \
    do {                                                                                     \
        if (::rxmesh::test::real_mesh_files().empty())                                       \
            GTEST_SKIP() << "neither libcgal-demo's data nor assimp-testmodels is installed"; \
    } while (0)
