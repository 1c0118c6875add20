// Where the tests find real meshes, and helpers to list them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
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

//! Calls visit(file, soup) for each real mesh that reads and has 1 to
//! max_faces faces (unreadable files are the I/O tests' business), in
//! real_mesh_files() order, until visit returns false; returns how many
//! it visited.
template <typename Visit>
int for_each_real_mesh(std::size_t max_faces, Visit&& visit)
{
    int visited = 0;
    for (const auto& file : real_mesh_files()) {
        TriangleSoup soup;
        try {
            soup = ::rxmesh::io::read(file);
        } catch (const ::rxmesh::Error&) {
            continue;
        }
        if (soup.faces.empty() || soup.faces.size() > max_faces) continue;
        ++visited;
        if (!visit(file, soup)) break;
    }
    return visited;
}

}  // namespace rxmesh::test
