// Mesh file readers and writers (host code, compiled into librxmesh).
//
// Readers accept OBJ, OFF (OFF/COFF/NOFF), PLY (ascii, binary little and big
// endian) and STL (ascii and binary, told apart by content). Polygons are
// fan-triangulated; triangles that repeat a vertex index are dropped and
// counted in TriangleSoup::dropped_faces.
//
// \throw ParseError     malformed content: names the file and the line (text)
//                       or byte offset (binary) and what was expected.
// \throw InvalidInputError  well-formed file with unusable data: an index out
//                       of range, a NaN or infinite coordinate.
// \throw IOError        the file cannot be opened or read.
// Readers never allocate more than the input can describe: element counts in
// headers are checked against the bytes that remain before any reservation.
// Large OBJ, OFF and ascii PLY files (cut at line ends), binary PLY files of
// the common layout and binary STL are read on several threads
// (ReadOptions); the result, and every error message, are those of the
// serial reader.
// A file that yields no face at all (empty file, point cloud, only repeated-
// vertex triangles) is an InvalidInputError: a soup returned by a reader
// always has at least one face.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::io {

enum class Format
{
    Obj,
    Off,
    Ply,
    Stl
};

//! How the readers use threads. The defaults suit every
//! caller; tests set them to cut small files into many pieces.
struct ReadOptions
{
    //! Threads for one file; 0 = every hardware thread.
    unsigned threads = 0;
    //! A file is cut into pieces of at least this many bytes, so small files
    //! are parsed serially.
    std::size_t min_piece_bytes = std::size_t(1) << 20;
};

//! Format from the file name's extension (case-insensitive).
//! \throw IOError for an unknown extension.
Format format_from_path(const std::string& path);

//! Reads a mesh file; the format comes from the extension.
TriangleSoup read(const std::string& path, const ReadOptions& options = {});

//! Parses an in-memory file image. `name` is used in error messages only.
TriangleSoup read_memory(std::string_view   bytes,
                         Format             format,
                         const std::string& name,
                         const ReadOptions& options = {});

//! A named per-vertex scalar field to export beside the positions.
struct VertexScalar
{
    std::string        name;
    std::vector<float> values;  // one per vertex
};

//! Writes a Wavefront OBJ. Per-vertex colors, when present, are written as
//! the common "v x y z r g b" extension (components in [0,1]).
void write_obj(const std::string& path, const TriangleSoup& mesh);

//! Writes a binary little-endian PLY with optional per-vertex colors (from
//! mesh.colors) and any number of named float scalars.
//! \throw InvalidInputError when a scalar field's size differs from the
//!        vertex count.
void write_ply(const std::string&               path,
               const TriangleSoup&              mesh,
               const std::vector<VertexScalar>& scalars = {});

//! The same from separate arrays, so that a caller with new positions for
//! an existing soup's faces need not assemble (copy) a soup. `colors` is
//! empty or one per position.
void write_ply(const std::string&               path,
               const std::vector<Vec3f>&        positions,
               const std::vector<Triangle>&     faces,
               const std::vector<Color3>&       colors,
               const std::vector<VertexScalar>& scalars = {});

//! A binary PLY whose faces are known before its vertices' values: the
//! constructor writes the header and the faces (for instance while a GPU
//! computes the positions), write_vertices the vertex records at their
//! place. write_ply is the two in one call. A writer destroyed before
//! write_vertices has finished removes its file.
class PlyWriter
{
   public:
    //! \throw InvalidInputError for a face index >= num_vertices, more than
    //!        2^31 - 1 vertices, or a scalar name that is not a PLY property
    //!        name or repeats another (nothing is written then); IOError
    //!        when the file cannot be written.
    PlyWriter(const std::string& path, std::size_t num_vertices, const std::vector<Triangle>& faces,
              bool colors, const std::vector<std::string>& scalar_names);
    ~PlyWriter();
    PlyWriter(const PlyWriter&)            = delete;
    PlyWriter& operator=(const PlyWriter&) = delete;

    //! Writes the vertex records and closes the file.
    //! \throw InvalidInputError when the positions, the colors (one per
    //!        position where the constructor was told so, else none) or the
    //!        scalars (names and order as the constructor's, one value per
    //!        position) do not match the header; IOError on a write error.
    void write_vertices(const std::vector<Vec3f>& positions, const std::vector<Color3>& colors,
                        const std::vector<VertexScalar>& scalars);

    const std::string&              path() const;
    const std::vector<std::string>& scalar_names() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}  // namespace rxmesh::io
