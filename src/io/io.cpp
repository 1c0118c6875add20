// Format dispatch, whole-file reading and the OBJ / PLY writers.
#include "rxmesh/io/io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>

#include "parallel_parse.h"
#include "parse_util.h"
#include "rxmesh/core/error.h"

namespace rxmesh::io {

Format format_from_path(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    const auto dot   = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        throw IOError(path + ": no file extension (expected .obj, .off, .ply or .stl)");
    std::string ext = path.substr(dot + 1);
    for (char& c : ext)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (ext == "obj")
        return Format::Obj;
    if (ext == "off")
        return Format::Off;
    if (ext == "ply")
        return Format::Ply;
    if (ext == "stl")
        return Format::Stl;
    throw IOError(path + ": unknown file extension '." + ext +
                  "' (expected .obj, .off, .ply or .stl)");
}

namespace {

struct FileCloser
{
    void operator()(std::FILE* f) const
    {
        if (f)
            std::fclose(f);
    }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

std::string errno_text() { return std::strerror(errno); }

// The parsers want the whole file as one buffer: the file mapped into memory
// (no copy, and the parsing threads fault their own pages in), or, where it
// cannot be mapped, read whole.
class FileImage
{
   public:
    explicit FileImage(const std::string& path)
    {
        struct stat st
        {
        };
        if (::stat(path.c_str(), &st) != 0)
            throw IOError(path + ": cannot open: " + errno_text());
        if (!S_ISREG(st.st_mode))
            throw IOError(path + ": not a regular file");
        m_size = static_cast<std::size_t>(st.st_size);
        if (m_size > 0 && map(path))
            return;
        File f(std::fopen(path.c_str(), "rb"));
        if (!f)
            throw IOError(path + ": cannot open: " + errno_text());
        m_copy.resize(m_size);
        const std::size_t got = std::fread(m_copy.data(), 1, m_copy.size(), f.get());
        if (got != m_copy.size() || std::ferror(f.get()))
            throw IOError(path + ": read error after " + std::to_string(got) + " of " +
                          std::to_string(m_copy.size()) + " bytes");
    }
    FileImage(const FileImage&)            = delete;
    FileImage& operator=(const FileImage&) = delete;
    ~FileImage()
    {
        if (m_map != nullptr)
            ::munmap(m_map, m_size);
    }

    std::string_view bytes() const
    {
        return m_map != nullptr ? std::string_view(static_cast<const char*>(m_map), m_size)
                                : std::string_view(m_copy);
    }

   private:
    bool map(const std::string& path)
    {
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0)
            return false;
        void* m = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        ::close(fd);
        if (m == MAP_FAILED)
            return false;
        m_map = m;
        return true;
    }

    std::size_t m_size = 0;
    void*       m_map  = nullptr;
    std::string m_copy;
};

// Buffered writer that turns every failure into IOError.
class Writer
{
   public:
    explicit Writer(const std::string& path) : m_path(path), m_file(std::fopen(path.c_str(), "wb"))
    {
        if (!m_file)
            throw IOError(path + ": cannot open for writing: " + errno_text());
        m_buf.reserve(kChunk + 256);
    }

    void put(std::string_view s)
    {
        m_buf.append(s);
        if (m_buf.size() >= kChunk)
            flush();
    }
    void put(char c)
    {
        m_buf.push_back(c);
        if (m_buf.size() >= kChunk)
            flush();
    }
    void put_uint(std::uint64_t v)
    {
        char buf[24];
        auto res = std::to_chars(buf, buf + sizeof buf, v);
        put(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
    }
    //! Writes `text` after what is buffered.
    void put_block(const std::string& text)
    {
        flush();
        if (!text.empty() && std::fwrite(text.data(), 1, text.size(), m_file.get()) != text.size())
            throw IOError(m_path + ": write error: " + errno_text());
    }

    //! Fixed-size records 0..count-1, `bytes` each, written after what is
    //! buffered: format(i, out) puts record i at out. Threads format into
    //! small buffers of their own and write them at their places in the
    //! file, so no copy of the whole body is ever made.
    template <typename Format>
    void put_fixed_records(std::size_t count, std::size_t bytes, Format&& format)
    {
        flush();
        if (count == 0)
            return;
        if (std::fflush(m_file.get()) != 0)
            throw IOError(m_path + ": write error: " + errno_text());
        const off_t start = ::lseek(::fileno(m_file.get()), 0, SEEK_END);
        if (start < 0)
            throw IOError(m_path + ": write error: " + errno_text());
        put_fixed_records_at(start, count, bytes, format);
        if (::lseek(::fileno(m_file.get()), start + off_t(count * bytes), SEEK_SET) < 0)
            throw IOError(m_path + ": write error: " + errno_text());
    }

    //! The same at byte `start` of the file (what is buffered is written
    //! first; the file position does not move).
    template <typename Format>
    void put_fixed_records_at(off_t start, std::size_t count, std::size_t bytes, Format&& format)
    {
        flush();
        if (count == 0)
            return;
        if (std::fflush(m_file.get()) != 0)
            throw IOError(m_path + ": write error: " + errno_text());
        const int             fd          = ::fileno(m_file.get());
        constexpr std::size_t kMinRecords = std::size_t(1) << 16;
        const unsigned pieces = detail::pieces_for(count, 0, kMinRecords);
        detail::run_pieces(pieces, [&](unsigned p) {
            const std::size_t per_block = std::max<std::size_t>(1, kChunk / bytes);
            std::vector<char> block(per_block * bytes);
            for (std::size_t i = count * p / pieces, end = count * (p + 1) / pieces; i < end;) {
                const std::size_t n = std::min(per_block, end - i);
                for (std::size_t k = 0; k < n; ++k) format(i + k, block.data() + k * bytes);
                write_at(fd, block.data(), n * bytes, start + off_t(i * bytes));
                i += n;
            }
        });
    }

    //! Bytes written or buffered so far (the header's length).
    off_t size()
    {
        if (std::fflush(m_file.get()) != 0)
            throw IOError(m_path + ": write error: " + errno_text());
        const off_t end = ::lseek(::fileno(m_file.get()), 0, SEEK_END);
        if (end < 0)
            throw IOError(m_path + ": write error: " + errno_text());
        return end + off_t(m_buf.size());
    }

    // Little-endian regardless of the host, into a record being assembled
    // (records are written whole: one append per vertex or face).
    static char* le32(char* out, std::uint32_t v)
    {
        for (int i = 0; i < 4; ++i)
            out[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
        return out + 4;
    }
    static char* f32_le(char* out, float v)
    {
        std::uint32_t u;
        std::memcpy(&u, &v, sizeof u);
        return le32(out, u);
    }

    void close()
    {
        flush();
        std::FILE* f = m_file.release();
        if (std::fclose(f) != 0)
            throw IOError(m_path + ": write error: " + errno_text());
    }

   private:
    static constexpr std::size_t kChunk = 1 << 20;

    void flush()
    {
        if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file.get()) != m_buf.size())
            throw IOError(m_path + ": write error: " + errno_text());
        m_buf.clear();
    }

    void write_at(int fd, const char* data, std::size_t size, off_t offset) const
    {
        while (size > 0) {
            const ssize_t done = ::pwrite(fd, data, size, offset);
            if (done < 0 && errno == EINTR)
                continue;
            if (done <= 0)
                throw IOError(m_path + ": write error: " + errno_text());
            data += done;
            size -= static_cast<std::size_t>(done);
            offset += done;
        }
    }

    std::string m_path;
    File        m_file;
    std::string m_buf;
};

//! Records 0..count-1 formatted on threads (format(i, text) appends record i
//! to text), then written in order: formatting, not the disk, bounds the
//! writers on large meshes. `bytes_per_record` sizes each piece's text.
template <typename Format>
void put_records(Writer& w, std::size_t count, std::size_t bytes_per_record, Format&& format)
{
    constexpr std::size_t kMinRecords = std::size_t(1) << 16;
    const unsigned        pieces      = detail::pieces_for(count, 0, kMinRecords);
    std::vector<std::string> text(pieces);
    detail::run_pieces(pieces, [&](unsigned p) {
        const std::size_t begin = count * p / pieces, end = count * (p + 1) / pieces;
        text[p].reserve((end - begin) * bytes_per_record);
        for (std::size_t i = begin; i < end; ++i) format(i, text[p]);
    });
    for (const std::string& t : text) w.put_block(t);
}

//! Shortest text that reads back to the same float (bit-exact round trip).
inline void append_float(std::string& out, float v)
{
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(res.ptr - buf));
}

inline void append_uint(std::string& out, std::uint64_t v)
{
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(res.ptr - buf));
}

// Writers refuse soups that readers would refuse, so that every written
// file reads back.
void validate(const std::string&           path,
              std::uint64_t                nv,
              const std::vector<Triangle>& faces,
              const std::vector<Color3>&   colors,
              std::uint64_t                max_vertices)
{
    if (nv > max_vertices)
        throw InvalidInputError(path + ": too many vertices (" + std::to_string(nv) +
                                ") for the file format");
    if (!colors.empty() && colors.size() != nv)
        throw InvalidInputError(path + ": " + std::to_string(colors.size()) +
                                " colors for " + std::to_string(nv) + " vertices");
    for (std::size_t f = 0; f < faces.size(); ++f)
        for (std::uint32_t v : faces[f])
            if (v >= nv)
                throw InvalidInputError(path + ": face " + std::to_string(f) + " has vertex index " +
                                        std::to_string(v) + " but there are " + std::to_string(nv) +
                                        " vertices");
}

}  // namespace

TriangleSoup read_memory(std::string_view   bytes,
                         Format             format,
                         const std::string& name,
                         const ReadOptions& options)
{
    switch (format) {
        case Format::Obj: return detail::read_obj(bytes, name, options);
        case Format::Off: return detail::read_off(bytes, name, options);
        case Format::Ply: return detail::read_ply(bytes, name, options);
        case Format::Stl: return detail::read_stl(bytes, name, options);
    }
    throw InvalidInputError(name + ": unknown format");
}

TriangleSoup read(const std::string& path, const ReadOptions& options)
{
    const Format    format = format_from_path(path);
    const FileImage file(path);
    return read_memory(file.bytes(), format, path, options);
}

void write_obj(const std::string& path, const TriangleSoup& mesh)
{
    validate(path, mesh.positions.size(), mesh.faces, mesh.colors, UINT32_MAX);
    Writer     w(path);
    const bool colors = !mesh.colors.empty();
    w.put("# written by RXMesh\n");
    put_records(w, mesh.positions.size(), colors ? 64 : 40, [&](std::size_t i, std::string& out) {
        const Vec3f& p = mesh.positions[i];
        out += 'v';
        for (int k = 0; k < 3; ++k) {
            out += ' ';
            append_float(out, p[k]);
        }
        if (colors)
            for (int k = 0; k < 3; ++k) {
                out += ' ';
                append_float(out, static_cast<float>(mesh.colors[i][k]) / 255.f);
            }
        out += '\n';
    });
    put_records(w, mesh.faces.size(), 28, [&](std::size_t i, std::string& out) {
        out += 'f';
        for (int k = 0; k < 3; ++k) {
            out += ' ';
            append_uint(out, std::uint64_t(mesh.faces[i][k]) + 1);
        }
        out += '\n';
    });
    w.close();
}

void write_ply(const std::string&               path,
               const TriangleSoup&              mesh,
               const std::vector<VertexScalar>& scalars)
{
    write_ply(path, mesh.positions, mesh.faces, mesh.colors, scalars);
}

namespace {

//! A PLY vertex property name: printable, no spaces, not x, y, z (nor the
//! colors' names when there are colors), not repeated.
void check_scalar_names(const std::string& path, bool colors,
                        const std::vector<std::string>& names)
{
    std::set<std::string> taken{"x", "y", "z"};
    if (colors)
        taken.insert({"red", "green", "blue"});
    for (const std::string& name : names) {
        bool ok = !name.empty();
        for (char c : name)
            ok = ok && c > ' ' && c < 127;
        if (!ok)
            throw InvalidInputError(path + ": scalar name '" + name +
                                    "' is not a PLY property name (printable, no spaces)");
        if (!taken.insert(name).second)
            throw InvalidInputError(path + ": duplicate vertex property name '" + name + "'");
    }
}

//! One value per vertex in every scalar.
void check_scalar_sizes(const std::string& path, std::size_t nv,
                        const std::vector<VertexScalar>& scalars)
{
    for (const VertexScalar& s : scalars)
        if (s.values.size() != nv)
            throw InvalidInputError(path + ": scalar '" + s.name + "' has " +
                                    std::to_string(s.values.size()) + " values for " +
                                    std::to_string(nv) + " vertices");
}

}  // namespace

struct PlyWriter::Impl
{
    std::string              path;
    std::size_t              nv = 0;
    bool                     colors = false;
    std::vector<std::string> names;
    std::unique_ptr<Writer>  w;
    off_t                    vertex_start = 0;
    bool                     done         = false;

    std::size_t vertex_bytes() const { return 12 + (colors ? 3 : 0) + 4 * names.size(); }

    void header(std::size_t num_faces)
    {
        w->put("ply\nformat binary_little_endian 1.0\ncomment written by RXMesh\nelement vertex ");
        w->put_uint(nv);
        w->put("\nproperty float x\nproperty float y\nproperty float z\n");
        if (colors)
            w->put("property uchar red\nproperty uchar green\nproperty uchar blue\n");
        for (const std::string& name : names) {
            w->put("property float ");
            w->put(name);
            w->put('\n');
        }
        w->put("element face ");
        w->put_uint(num_faces);
        w->put("\nproperty list uchar int vertex_indices\nend_header\n");
    }
};

PlyWriter::PlyWriter(const std::string& path, std::size_t num_vertices,
                     const std::vector<Triangle>& faces, bool colors,
                     const std::vector<std::string>& scalar_names)
    : m(std::make_unique<Impl>())
{
    // Indices are written as PLY "int": at most 2^31-1 vertices.
    validate(path, num_vertices, faces, {}, INT32_MAX);
    check_scalar_names(path, colors, scalar_names);
    m->path   = path;
    m->nv     = num_vertices;
    m->colors = colors;
    m->names  = scalar_names;
    m->w      = std::make_unique<Writer>(path);
    try {
        m->header(faces.size());
        m->vertex_start = m->w->size();
        const off_t face_start = m->vertex_start + off_t(m->nv * m->vertex_bytes());
        m->w->put_fixed_records_at(face_start, faces.size(), 13, [&](std::size_t i, char* r) {
            *r++ = static_cast<char>(3);
            for (int k = 0; k < 3; ++k)
                r = Writer::le32(r, faces[i][k]);
        });
    } catch (...) {
        m->w.reset();
        std::remove(path.c_str());
        throw;
    }
}

PlyWriter::~PlyWriter()
{
    if (m && !m->done) {
        m->w.reset();  // closed before it is removed
        std::remove(m->path.c_str());
    }
}

const std::string&              PlyWriter::path() const { return m->path; }
const std::vector<std::string>& PlyWriter::scalar_names() const { return m->names; }

void PlyWriter::write_vertices(const std::vector<Vec3f>&        positions,
                               const std::vector<Color3>&       colors,
                               const std::vector<VertexScalar>& scalars)
{
    const std::string& path = m->path;
    if (m->done)
        throw Error(path + ": the vertices were written already");
    if (positions.size() != m->nv)
        throw InvalidInputError(path + ": " + std::to_string(positions.size()) +
                                " positions for a header of " + std::to_string(m->nv) +
                                " vertices");
    if (colors.size() != (m->colors ? m->nv : 0))
        throw InvalidInputError(path + ": " + std::to_string(colors.size()) + " colors for " +
                                std::to_string(m->nv) + " vertices" +
                                (m->colors ? "" : " (the header has no colors)"));
    check_scalar_sizes(path, m->nv, scalars);
    bool same_names = scalars.size() == m->names.size();
    for (std::size_t k = 0; same_names && k < scalars.size(); ++k)
        same_names = scalars[k].name == m->names[k];
    if (!same_names)
        throw InvalidInputError(path + ": the scalars differ from the header's properties");
    m->w->put_fixed_records_at(m->vertex_start, m->nv, m->vertex_bytes(), [&](std::size_t i,
                                                                             char* r) {
        for (int k = 0; k < 3; ++k)
            r = Writer::f32_le(r, positions[i][k]);
        if (!colors.empty())
            for (int k = 0; k < 3; ++k)
                *r++ = static_cast<char>(colors[i][k]);
        for (const VertexScalar& s : scalars)
            r = Writer::f32_le(r, s.values[i]);
    });
    m->w->close();
    m->done = true;
}

void write_ply(const std::string&               path,
               const std::vector<Vec3f>&        positions,
               const std::vector<Triangle>&     faces,
               const std::vector<Color3>&       colors,
               const std::vector<VertexScalar>& scalars)
{
    // the vertex arrays are checked before the file is made (the faces and
    // the names by PlyWriter, also before)
    validate(path, positions.size(), {}, colors, INT32_MAX);
    check_scalar_sizes(path, positions.size(), scalars);
    std::vector<std::string> names;
    for (const VertexScalar& s : scalars) names.push_back(s.name);
    PlyWriter w(path, positions.size(), faces, !colors.empty(), names);
    w.write_vertices(positions, colors, scalars);
}

}  // namespace rxmesh::io
