// Stanford PLY reader: ascii, binary_little_endian and binary_big_endian.
//
// ply_header.cpp parses and checks the header; this file walks the body
// element by element, keeping the vertex positions (and colors) and the face
// index lists and stepping over everything else (see ply_format.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parallel_parse.h"
#include "parse_util.h"
#include "ply_format.h"

namespace rxmesh::io::detail {
namespace {

// ---- binary values --------------------------------------------------------

template <typename T>
T load(const unsigned char* p, bool swap)
{
    unsigned char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (swap)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i)
            std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

bool host_is_little_endian()
{
    const std::uint16_t one = 1;
    unsigned char       b;
    std::memcpy(&b, &one, 1);
    return b == 1;
}

// Integer types as int64; floats are not allowed where an integer is needed
// and read as 0.
std::int64_t load_as_int(const unsigned char* p, PlyType t, bool swap)
{
    switch (t) {
        case PlyType::I8: return static_cast<std::int8_t>(*p);
        case PlyType::U8: return *p;
        case PlyType::I16: return load<std::int16_t>(p, swap);
        case PlyType::U16: return load<std::uint16_t>(p, swap);
        case PlyType::I32: return load<std::int32_t>(p, swap);
        case PlyType::U32: return load<std::uint32_t>(p, swap);
        default: return 0;
    }
}

// A binary value of type t as double (exact for every PLY type: integers
// are at most 32 bits).
double load_as_double(const unsigned char* p, PlyType t, bool swap)
{
    if (t == PlyType::F32)
        return load<float>(p, swap);
    if (t == PlyType::F64)
        return load<double>(p, swap);
    return static_cast<double>(load_as_int(p, t, swap));
}

class PlyBodyReader : TextParser
{
   public:
    PlyBodyReader(std::string_view bytes, const std::string& name, const PlyHeader& h)
        : TextParser(bytes, name), m_h(h)
    {
        m_line = h.body_line;
    }

    TriangleSoup run()
    {
        for (std::size_t e = 0; e < m_h.elements.size(); ++e)
            if (static_cast<int>(e) == m_h.vertex_element)
                m_soup.positions.reserve(m_h.elements[e].count);
            else if (static_cast<int>(e) == m_h.face_element)
                m_soup.faces.reserve(m_h.elements[e].count);
        if (m_h.encoding == PlyEncoding::Ascii)
            ascii_body(m_h.body);
        else
            binary_body(m_h.body);
        require_faces(m_soup, m_name);
        return std::move(m_soup);
    }

    //! Records [first, first + count) of an ascii body, the piece given to
    //! the constructor starting at record `first`, one record per line.
    //! \throw SerialOnly (or anything) where the serial read must decide.
    TriangleSoup ascii_piece(std::uint64_t first, std::uint64_t count)
    {
        const char*   p    = m_begin;
        std::size_t   e    = 0;
        std::uint64_t base = 0;  // records before element e
        for (std::uint64_t r = first; r < first + count; ++r) {
            while (e < m_h.elements.size() &&
                   (m_h.elements[e].props.empty() || r >= base + m_h.elements[e].count)) {
                if (!m_h.elements[e].props.empty())
                    base += m_h.elements[e].count;
                ++e;
            }
            if (e == m_h.elements.size())
                break;  // past the last element: not read
            const PlyElement& el      = m_h.elements[e];
            const bool        is_vert = static_cast<int>(e) == m_h.vertex_element;
            const bool        is_face = static_cast<int>(e) == m_h.face_element;
            double            vals[kRoles] = {0, 0, 0, 0, 0, 0};
            m_poly.clear();
            p                        = next_token(p);
            const std::uint64_t line = m_line;
            ascii_record(p, el, r - base, is_vert ? vals : nullptr, is_face);
            p = skip_blanks(p, m_end);
            if (m_line != line || (p < m_end && *p != '\n'))
                throw SerialOnly{};  // a record that is not exactly one line
            if (is_vert)
                add_vertex(vals, 0, false);
            if (is_face)
                add_face(0, false);
        }
        return std::move(m_soup);
    }

   private:
    // ---- shared -----------------------------------------------------------

    // Stores value v of vertex property k in the slot of each role it has.
    void keep_roles(double* vals, std::size_t k, double v) const
    {
        for (int r = 0; r < kRoles; ++r)
            if (m_h.role[r] == static_cast<int>(k))
                vals[r] = v;
    }

    void add_vertex(const double* v, std::uint64_t where, bool binary)
    {
        Vec3f p{static_cast<float>(v[kRoleX]), static_cast<float>(v[kRoleY]),
                static_cast<float>(v[kRoleZ])};
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
            const std::string what = "vertex " + std::to_string(m_soup.positions.size()) +
                                     " has a NaN or infinite (or out of float range) coordinate";
            if (binary)
                invalid_byte(m_name, where, what);
            invalid_line(m_name, where, what);
        }
        m_soup.positions.push_back(p);
        if (m_h.has_colors) {
            const PlyElement& el = m_h.elements[m_h.vertex_element];
            Color3            c{};
            for (int k = 0; k < 3; ++k) {
                const PlyType t = el.props[m_h.role[kRoleR + k]].type;
                c[k] = ply_is_float(t) ? unit_to_byte(static_cast<float>(v[kRoleR + k]))
                                       : clamp_to_byte(v[kRoleR + k]);
            }
            m_soup.colors.push_back(c);
        }
    }

    void add_face(std::uint64_t where, bool binary)
    {
        if (m_poly.size() < 3) {
            const std::string what = "face " + std::to_string(m_face_index) + " has " +
                                     std::to_string(m_poly.size()) +
                                     " vertices (expected at least 3)";
            if (binary)
                parse_error_byte(m_name, where, what);
            parse_error_line(m_name, where, what);
        }
        FaceSink{m_soup}.polygon(m_poly.data(), m_poly.size());
    }

    // Walks the element instances of the body in file order, skipping
    // elements without properties (they take no bytes, whatever their
    // count). read(el, i, vals, is_face) reads instance i of el (vals: null
    // unless el is the vertex element) and returns where it starts (a line,
    // or a byte offset when binary); the vertex or face is then stored.
    template <typename Read>
    void read_elements(Read read, bool binary)
    {
        for (std::size_t e = 0; e < m_h.elements.size(); ++e) {
            const PlyElement& el      = m_h.elements[e];
            const bool        is_vert = static_cast<int>(e) == m_h.vertex_element;
            const bool        is_face = static_cast<int>(e) == m_h.face_element;
            if (el.props.empty())
                continue;
            for (std::uint64_t i = 0; i < el.count; ++i) {
                double vals[kRoles] = {0, 0, 0, 0, 0, 0};
                m_poly.clear();
                const std::uint64_t where = read(el, i, is_vert ? vals : nullptr, is_face);
                if (is_vert)
                    add_vertex(vals, where, binary);
                if (is_face) {
                    add_face(where, binary);
                    ++m_face_index;
                }
            }
        }
    }

    std::uint32_t check_index(std::int64_t v, std::uint64_t where, bool binary)
    {
        if (v < 0 || static_cast<std::uint64_t>(v) >= m_h.nv) {
            const std::string what = "vertex index " + std::to_string(v) + " in face " +
                                     std::to_string(m_face_index) + " out of range (the file has " +
                                     std::to_string(m_h.nv) + " vertices)";
            if (binary)
                invalid_byte(m_name, where, what);
            invalid_line(m_name, where, what);
        }
        return static_cast<std::uint32_t>(v);
    }

    // ---- ascii body ---------------------------------------------------------

    bool is_delim(const char* p) const { return p >= m_end || is_space(*p); }

    [[noreturn]] void ascii_expected(const char* p, const PlyElement& el, std::uint64_t i,
                                     const std::string& what)
    {
        parse_error_line(m_name, m_line,
                         "expected " + what + " of " + el.name + " " + std::to_string(i) + " (of " +
                             std::to_string(el.count) + "), found " + describe(p, m_end));
    }

    // One ascii value of type t; integers must be written as integers.
    const char* ascii_value(const char* p, PlyType t, double& out, const PlyElement& el,
                            std::uint64_t i, const std::string& prop)
    {
        p = next_token(p);
        const char* q;
        if (ply_is_float(t)) {
            // Parsed straight to float, also for double properties: the
            // soup stores floats, and text -> float is correctly rounded
            // while text -> double -> float could round twice.
            float f = 0.f;
            q       = parse_float(p, m_end, f);
            out     = f;
        } else {
            std::int64_t v = 0;
            q              = parse_int(p, m_end, v);
            out            = static_cast<double>(v);
        }
        if (q == nullptr || !is_delim(q))
            ascii_expected(p, el, i, std::string(ply_is_float(t) ? "a number" : "an integer") +
                                         " for property '" + prop + "'");
        return q;
    }

    // The ascii list property pr of instance i of el; its items go to m_poly
    // when keep is set.
    const char* ascii_list(const char* p, const PlyProperty& pr, const PlyElement& el,
                           std::uint64_t i, bool keep, bool first, std::uint64_t& line)
    {
        double n = 0;
        p        = ascii_value(p, pr.count_type, n, el, i, pr.name + " count");
        if (first)
            line = m_line;
        if (n < 0 || n > static_cast<double>(m_end - p) / 2 + 1)
            parse_error_line(m_name, m_line,
                             "list '" + pr.name + "' of " + el.name + " " + std::to_string(i) +
                                 " has an invalid length");
        for (std::int64_t j = 0; j < static_cast<std::int64_t>(n); ++j) {
            double v = 0;
            p        = ascii_value(p, pr.type, v, el, i, pr.name);
            if (keep)
                m_poly.push_back(check_index(static_cast<std::int64_t>(v), m_line, false));
        }
        return p;
    }

    // One ascii instance i of el: its kept face list goes to m_poly and, for
    // a vertex, its values to vals. Returns the line it starts on.
    std::uint64_t ascii_record(const char*& p, const PlyElement& el, std::uint64_t i,
                               double* vals, bool is_face)
    {
        std::uint64_t line = 0;
        for (std::size_t k = 0; k < el.props.size(); ++k) {
            const PlyProperty& pr = el.props[k];
            if (pr.is_list) {
                const bool keep = is_face && static_cast<int>(k) == m_h.face_list;
                p               = ascii_list(p, pr, el, i, keep, k == 0, line);
                continue;
            }
            double v = 0;
            p        = ascii_value(p, pr.type, v, el, i, pr.name);
            if (k == 0)
                line = m_line;
            if (vals)
                keep_roles(vals, k, v);
        }
        return line;
    }

    void ascii_body(const char* p)
    {
        read_elements(
            [&](const PlyElement& el, std::uint64_t i, double* vals, bool is_face) {
                return ascii_record(p, el, i, vals, is_face);
            },
            false);
    }

    // ---- binary body --------------------------------------------------------

    std::uint64_t offset(const char* p) const { return static_cast<std::uint64_t>(p - m_begin); }

    [[noreturn]] void truncated(const char* p, const PlyElement& el, std::uint64_t i)
    {
        parse_error_byte(m_name, offset(p),
                         "file ends inside " + el.name + " " + std::to_string(i) + " (of " +
                             std::to_string(el.count) + ")");
    }

    // The binary list property pr of instance i of el; its items go to
    // m_poly when keep is set.
    const char* binary_list(const char* p, const PlyProperty& pr, const PlyElement& el,
                            std::uint64_t i, bool keep, bool swap)
    {
        const std::size_t csz = ply_type_size(pr.count_type);
        if (static_cast<std::size_t>(m_end - p) < csz)
            truncated(p, el, i);
        const std::int64_t n =
            load_as_int(reinterpret_cast<const unsigned char*>(p), pr.count_type, swap);
        const char* count_at = p;
        p += csz;
        const std::size_t isz = ply_type_size(pr.type);
        if (n < 0)
            parse_error_byte(m_name, offset(count_at),
                             "negative list length " + std::to_string(n) + " in '" + pr.name +
                                 "' of " + el.name + " " + std::to_string(i));
        if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(m_end - p) / isz)
            truncated(p, el, i);
        if (!keep)
            return p + static_cast<std::size_t>(n) * isz;
        for (std::int64_t j = 0; j < n; ++j, p += isz)
            m_poly.push_back(check_index(
                load_as_int(reinterpret_cast<const unsigned char*>(p), pr.type, swap), offset(p),
                true));
        return p;
    }

    // One binary instance i of el, as ascii_record(). Returns the offset it
    // starts at.
    std::uint64_t binary_record(const char*& p, const PlyElement& el, std::uint64_t i,
                                double* vals, bool is_face, bool swap)
    {
        const char* start = p;
        for (std::size_t k = 0; k < el.props.size(); ++k) {
            const PlyProperty& pr = el.props[k];
            if (pr.is_list) {
                const bool keep = is_face && static_cast<int>(k) == m_h.face_list;
                p               = binary_list(p, pr, el, i, keep, swap);
                continue;
            }
            const std::size_t sz = ply_type_size(pr.type);
            if (static_cast<std::size_t>(m_end - p) < sz)
                truncated(p, el, i);
            if (vals)
                keep_roles(vals, k,
                           load_as_double(reinterpret_cast<const unsigned char*>(p), pr.type, swap));
            p += sz;
        }
        return offset(start);
    }

    void binary_body(const char* p)
    {
        const bool swap = (m_h.encoding == PlyEncoding::BinaryBE) == host_is_little_endian();
        read_elements(
            [&](const PlyElement& el, std::uint64_t i, double* vals, bool is_face) {
                return binary_record(p, el, i, vals, is_face, swap);
            },
            true);
    }

    const PlyHeader&           m_h;
    std::uint64_t              m_face_index = 0;
    TriangleSoup               m_soup;
    std::vector<std::uint32_t> m_poly;
};

// ---- binary fast path -----------------------------------------------------
//
// Most binary files are a vertex element of fixed-size properties followed
// by a face element whose only property is a uchar-counted list of int
// indices, every list of length 3. Those records have fixed sizes, so the
// body is read by offset, on threads, without the per-property walk. Anything
// else, and anything irregular (a longer list, an index out of range, a NaN,
// colors), goes to PlyBodyReader, which then gives the usual errors.

//! Byte offsets of x, y, z in a vertex record, and the record's size.
struct VertexLayout
{
    std::size_t bytes = 0, at[3] = {0, 0, 0};
    PlyType     type[3]{};
};

bool fixed_vertex_layout(const PlyHeader& h, VertexLayout& out)
{
    const PlyElement& el = h.elements[h.vertex_element];
    for (std::size_t k = 0; k < el.props.size(); ++k) {
        if (el.props[k].is_list)
            return false;
        for (int r = 0; r < 3; ++r)
            if (h.role[r] == static_cast<int>(k)) {
                out.at[r]   = out.bytes;
                out.type[r] = el.props[k].type;
            }
        out.bytes += ply_type_size(el.props[k].type);
    }
    return true;
}

bool fast_binary_layout(const PlyHeader& h, VertexLayout& layout)
{
    if (h.encoding == PlyEncoding::Ascii || h.has_colors || h.vertex_element != 0 ||
        h.face_element != 1 || h.face_list != 0 || !fixed_vertex_layout(h, layout))
        return false;
    for (std::size_t e = 2; e < h.elements.size(); ++e)
        if (!h.elements[e].props.empty() && h.elements[e].count > 0)
            return false;
    const PlyElement& faces = h.elements[1];
    return faces.props.size() == 1 && faces.props[0].count_type == PlyType::U8 &&
           (faces.props[0].type == PlyType::I32 || faces.props[0].type == PlyType::U32);
}

//! \throw SerialOnly where PlyBodyReader must decide.
TriangleSoup read_fast_binary(std::string_view bytes, const PlyHeader& h, const VertexLayout& vl,
                              const ReadOptions& options)
{
    const bool            swap  = (h.encoding == PlyEncoding::BinaryBE) == host_is_little_endian();
    const std::uint64_t   nv    = h.elements[0].count, nf = h.elements[1].count;
    const auto*           body  = reinterpret_cast<const unsigned char*>(h.body);
    const std::uint64_t   left  = static_cast<std::uint64_t>(bytes.data() + bytes.size() - h.body);
    constexpr std::size_t kFace = 13;
    if (nv > left / std::max<std::size_t>(vl.bytes, 1) || nf > (left - nv * vl.bytes) / kFace)
        throw SerialOnly{};
    const unsigned char* face_body = body + nv * vl.bytes;

    const unsigned pieces = parse_pieces(static_cast<std::size_t>(left), options);
    std::vector<TriangleSoup> parts(pieces);
    run_pieces(pieces, [&](unsigned p) {
        TriangleSoup&       part = parts[p];
        const std::uint64_t v0 = nv * p / pieces, v1 = nv * (p + 1) / pieces;
        part.positions.resize(v1 - v0);
        for (std::uint64_t i = v0; i < v1; ++i) {
            const unsigned char* r = body + i * vl.bytes;
            Vec3f&               x = part.positions[i - v0];
            for (int k = 0; k < 3; ++k)
                x[k] = static_cast<float>(load_as_double(r + vl.at[k], vl.type[k], swap));
            if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
                throw SerialOnly{};
        }
        const std::uint64_t f0 = nf * p / pieces, f1 = nf * (p + 1) / pieces;
        part.faces.reserve(f1 - f0);
        FaceSink sink{part};
        for (std::uint64_t i = f0; i < f1; ++i) {
            const unsigned char* r = face_body + i * kFace;
            if (r[0] != 3)
                throw SerialOnly{};
            std::uint32_t t[3];
            for (int k = 0; k < 3; ++k) {
                const std::int64_t v = load_as_int(r + 1 + 4 * k, h.elements[1].props[0].type, swap);
                if (v < 0 || static_cast<std::uint64_t>(v) >= nv)
                    throw SerialOnly{};
                t[k] = static_cast<std::uint32_t>(v);
            }
            sink.triangle(t[0], t[1], t[2]);
        }
    });
    return join_soups(parts);
}

//! An ascii body cut at line ends into pieces: each counts its records
//! (non-blank lines), then reads them knowing which record it starts at.
//! \throw anything where the serial read must decide.
TriangleSoup read_ascii_pieces(std::string_view bytes, const std::string& name,
                               const PlyHeader& h, unsigned pieces)
{
    const char* const                   end  = bytes.data() + bytes.size();
    const std::vector<std::string_view> cuts = split_at_lines(h.body, end, pieces);
    const unsigned                      n    = static_cast<unsigned>(cuts.size());
    const std::vector<std::uint64_t>    first = record_starts(cuts);
    std::uint64_t                       records = 0;
    for (const PlyElement& el : h.elements)
        if (!el.props.empty())
            records += el.count;
    if (first[n] < records)
        throw SerialOnly{};  // truncated, or records spanning lines
    std::vector<TriangleSoup> parts(n);
    run_pieces(n, [&](unsigned i) {
        parts[i] = PlyBodyReader(cuts[i], name, h)
                       .ascii_piece(first[i], std::min(first[i + 1], records) -
                                                  std::min(first[i], records));
    });
    std::vector<std::vector<Color3>> colors(n);
    for (unsigned i = 0; i < n; ++i) colors[i] = std::move(parts[i].colors);
    TriangleSoup soup = join_soups(parts);
    if (h.has_colors)
        soup.colors = join_pieces(colors);
    require_faces(soup, name);
    return soup;
}

}  // namespace

TriangleSoup read_ply(std::string_view bytes, const std::string& name, const ReadOptions& options)
{
    const PlyHeader header = parse_ply_header(bytes, name);
    if (header.encoding == PlyEncoding::Ascii) {
        const std::size_t body   = static_cast<std::size_t>(bytes.data() + bytes.size() - header.body);
        const unsigned    pieces = parse_pieces(body, options);
        return threaded_or_serial(
            pieces, [&] { return read_ascii_pieces(bytes, name, header, pieces); },
            [&] { return PlyBodyReader(bytes, name, header).run(); });
    }
    VertexLayout    layout;
    if (fast_binary_layout(header, layout)) {
        try {
            TriangleSoup soup = read_fast_binary(bytes, header, layout, options);
            if (!soup.faces.empty())
                return soup;
        } catch (const SerialOnly&) {
            // PlyBodyReader below decides, with its messages.
        }
    }
    return PlyBodyReader(bytes, name, header).run();
}

}  // namespace rxmesh::io::detail
