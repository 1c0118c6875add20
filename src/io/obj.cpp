// Wavefront OBJ reader.
//
// Only `v` and `f` matter for a triangle soup; every other statement (vt, vn,
// g, o, s, usemtl, mtllib, l, p, curves, ...) is skipped. The whole file is
// one buffer and the parser walks it once, statement by statement, so the
// cost is dominated by number parsing (see parse_util.h). A large file is cut
// at line ends into pieces parsed on threads (parallel_parse.h); indices are
// absolute, so the pieces' faces join without renumbering.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parallel_parse.h"
#include "parse_util.h"

namespace rxmesh::io::detail {
namespace {

//! What one piece of a cut file yields: its vertices and faces, and what the
//! join needs to decide colors and index ranges.
struct ObjPiece
{
    TriangleSoup                      soup;
    std::vector<std::array<float, 3>> colors;
    bool                              colors_ok = true;
    std::uint64_t                     index_end = 0;  // 1 + the largest index
};

//! Float colors of every vertex -> bytes. The usual convention is [0,1];
//! some writers emit 0..255.
std::vector<Color3> colors_to_bytes(const std::vector<std::array<float, 3>>& colors)
{
    bool bytes = false;
    for (const auto& c : colors) bytes = bytes || c[0] > 1.f || c[1] > 1.f || c[2] > 1.f;
    std::vector<Color3> out(colors.size());
    for (std::size_t i = 0; i < colors.size(); ++i)
        for (int k = 0; k < 3; ++k)
            out[i][k] = bytes ? clamp_to_byte(colors[i][k]) : unit_to_byte(colors[i][k]);
    return out;
}

class ObjParser : TextParser
{
   public:
    ObjParser(std::string_view bytes, const std::string& name, bool piece = false)
        : TextParser(bytes, name), m_piece(piece)
    {
    }

    //! The whole file, serially.
    TriangleSoup run()
    {
        statements(check_text_encoding(m_begin, m_end, m_name));
        finish();
        return std::move(m_soup);
    }

    //! One piece of a cut file (starting a line). \throw on anything the
    //! serial parse must decide.
    ObjPiece run_piece()
    {
        // Room for the vertices and triangles of typical lines (20 bytes or
        // more), so that the arrays rarely move: growing them maps and
        // unmaps memory, which stalls the other threads' page faults.
        // Untouched room costs address space, not memory.
        const std::size_t bytes = static_cast<std::size_t>(m_end - m_begin);
        m_soup.positions.reserve(bytes / 16);
        m_soup.faces.reserve(bytes / 16);
        statements(m_begin);
        ObjPiece piece;
        piece.colors_ok = m_colors_ok;
        piece.colors    = std::move(m_colors);
        piece.index_end = m_index_end;
        piece.soup      = std::move(m_soup);
        return piece;
    }

   private:
    void statements(const char* p)
    {
        for (;;) {
            // Comments ('#' to the end of the line) do not continue with a
            // backslash.
            p = next_token(p, '#');
            if (p >= m_end)
                break;
            const char* key = p;
            while (p < m_end && !is_space(*p) && *p != '#')
                ++p;
            const std::size_t len = static_cast<std::size_t>(p - key);
            if (len == 1 && *key == 'v')
                p = vertex(p);
            else if (len == 1 && *key == 'f')
                p = face(p);
            else if ((*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_')
                p = skip_statement(p);
            else
                parse_error_line(m_name, m_line,
                                 "expected a statement keyword (v, f, vt, ...), found " +
                                     describe(key, m_end));
        }
    }

    // Blanks, plus the optional "\\\n" line continuation.
    const char* blanks(const char* p)
    {
        for (;;) {
            p = skip_blanks(p, m_end);
            if (p < m_end && *p == '\\') {
                const char* q = p + 1;
                while (q < m_end && *q == '\r')
                    ++q;
                if (q < m_end && *q == '\n') {
                    ++m_line;
                    p = q + 1;
                    continue;
                }
                if (q == m_end)
                    return q;
            }
            return p;
        }
    }

    bool statement_ends(const char* p) const
    {
        return p >= m_end || *p == '\n' || *p == '#';
    }

    // What may follow a number: a blank, the end of the statement or a
    // continuation backslash (checked by blanks()).
    bool is_delim(const char* p) const
    {
        return p >= m_end || is_space(*p) || *p == '#' || *p == '\\';
    }

    // Skips to the '\n' that ends this statement, following continuations.
    const char* skip_statement(const char* p)
    {
        for (;;) {
            const char* eol = find_eol(p, m_end);
            const char* q   = eol;
            while (q > p && q[-1] == '\r')
                --q;
            if (eol < m_end && q > p && q[-1] == '\\') {
                ++m_line;
                p = eol + 1;
                continue;
            }
            return eol;
        }
    }

    const char* end_statement(const char* p)
    {
        return (p < m_end && *p == '#') ? find_eol(p, m_end) : p;
    }

    const char* vertex(const char* p)
    {
        // x y z, then w, or r g b, or r g b a.
        float v[7];
        int   n = 0;
        for (;;) {
            p = blanks(p);
            if (statement_ends(p))
                break;
            if (n == 7)
                parse_error_line(m_name, m_line,
                                 "too many values in vertex (expected x y z [w] or x y z r g b)");
            const char* q = parse_float(p, m_end, v[n]);
            if (q == nullptr || !is_delim(q))
                parse_error_line(m_name, m_line,
                                 "expected a number in vertex, found " + describe(p, m_end));
            p = q;
            ++n;
        }
        if (n < 3 || n == 5)
            parse_error_line(m_name, m_line,
                             "vertex has " + std::to_string(n) +
                                 " values (expected x y z [w] or x y z r g b)");
        for (int i = 0; i < n; ++i)
            if (!std::isfinite(v[i]))
                invalid_line(m_name, m_line,
                             std::string(i < 3 ? "vertex coordinate" : "vertex color") +
                                 " is NaN or infinite");
        if (m_soup.positions.size() >= UINT32_MAX)
            invalid_line(m_name, m_line, "more than 2^32-1 vertices");
        m_soup.positions.push_back({v[0], v[1], v[2]});
        if (n >= 6 && m_colors_ok) {
            m_colors.push_back({v[3], v[4], v[5]});
        } else if (m_colors_ok) {
            // Colors count only when every vertex has them.
            m_colors_ok = false;
            std::vector<std::array<float, 3>>().swap(m_colors);
        }
        return end_statement(p);
    }

    const char* face(const char* p)
    {
        m_poly.clear();
        const std::uint64_t nv = m_soup.positions.size();
        for (;;) {
            p = blanks(p);
            if (statement_ends(p))
                break;
            std::int64_t idx = 0;
            const char*  q   = parse_int(p, m_end, idx);
            if (q != nullptr && q < m_end && *q == '/') {
                // v/vt, v//vn or v/vt/vn: texture and normal indices are
                // not used, only their syntax is checked.
                std::int64_t unused = 0;
                ++q;
                if (const char* r = parse_int(q, m_end, unused))
                    q = r;
                if (q < m_end && *q == '/') {
                    ++q;
                    if (const char* r = parse_int(q, m_end, unused))
                        q = r;
                }
            }
            if (q == nullptr || !is_delim(q))
                parse_error_line(m_name, m_line,
                                 "expected a vertex index (v, v/vt, v//vn or v/vt/vn) in face, found " +
                                     describe(p, m_end));
            m_poly.push_back(resolve(idx, nv));
            p = q;
        }
        if (m_poly.size() < 3)
            parse_error_line(m_name, m_line,
                             "face has " + std::to_string(m_poly.size()) +
                                 " vertices (expected at least 3)");
        FaceSink{m_soup}.polygon(m_poly.data(), m_poly.size());
        return end_statement(p);
    }

    // 1-based or negative (relative to the vertices read so far) -> 0-based.
    std::uint32_t resolve(std::int64_t idx, std::uint64_t nv)
    {
        if (idx > 0) {
            const std::uint64_t u = static_cast<std::uint64_t>(idx) - 1;
            if (u >= UINT32_MAX)
                invalid_line(m_name, m_line,
                             "vertex index " + std::to_string(idx) + " out of range");
            if (m_piece) {  // the join checks the range against every vertex
                m_index_end = std::max(m_index_end, u + 1);
                return static_cast<std::uint32_t>(u);
            }
            // A forward reference may still become valid; check at the end
            // and report the line of the largest one.
            if (u >= nv && (!m_has_forward || u > m_forward_max)) {
                m_has_forward  = true;
                m_forward_max  = u;
                m_forward_line = m_line;
            }
            return static_cast<std::uint32_t>(u);
        }
        if (idx == 0)
            invalid_line(m_name, m_line, "vertex index 0 is invalid (OBJ indices start at 1)");
        if (m_piece) throw SerialOnly{};  // relative to vertices of earlier pieces
        const std::uint64_t back = static_cast<std::uint64_t>(-idx);
        if (back > nv)
            invalid_line(m_name, m_line,
                         "relative vertex index " + std::to_string(idx) +
                             " points before the first vertex (" + std::to_string(nv) +
                             " vertices read so far)");
        return static_cast<std::uint32_t>(nv - back);
    }

    void finish()
    {
        const std::uint64_t nv = m_soup.positions.size();
        if (m_has_forward && m_forward_max >= nv)
            invalid_line(m_name, m_forward_line,
                         "vertex index " + std::to_string(m_forward_max + 1) +
                             " out of range (the file has " + std::to_string(nv) +
                             " vertices)");
        if (m_colors_ok && nv > 0 && m_colors.size() == nv) m_soup.colors = colors_to_bytes(m_colors);
        require_faces(m_soup, m_name);
    }

    const bool   m_piece;
    TriangleSoup m_soup;

    std::vector<std::array<float, 3>> m_colors;
    bool                              m_colors_ok = true;
    std::vector<std::uint32_t>        m_poly;

    bool          m_has_forward  = false;
    std::uint64_t m_forward_max  = 0;
    std::uint64_t m_forward_line = 0;
    std::uint64_t m_index_end    = 0;
};

//! The file cut into `pieces` parsed on threads and joined in order.
//! \throw anything when the serial parse must decide.
TriangleSoup read_pieces(const char* begin, const char* end, const std::string& name,
                         unsigned pieces)
{
    const std::vector<std::string_view> cuts = split_at_lines(begin, end, pieces);
    std::vector<ObjPiece>               parts(cuts.size());
    run_pieces(static_cast<unsigned>(cuts.size()),
               [&](unsigned i) { parts[i] = ObjParser(cuts[i], name, true).run_piece(); });

    std::uint64_t nv = 0, index_end = 0;
    bool          colors_ok = true;
    for (const ObjPiece& part : parts) {
        nv += part.soup.positions.size();
        index_end = std::max(index_end, part.index_end);
        colors_ok = colors_ok && part.colors_ok;
    }
    if (nv >= UINT32_MAX || index_end > nv) throw SerialOnly{};  // its message, its line

    std::vector<TriangleSoup>                      soups(parts.size());
    std::vector<std::vector<std::array<float, 3>>> colors(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        soups[i]  = std::move(parts[i].soup);
        colors[i] = std::move(parts[i].colors);
    }
    TriangleSoup soup = join_soups(soups);
    if (colors_ok && nv > 0) soup.colors = colors_to_bytes(join_pieces(colors));
    require_faces(soup, name);
    return soup;
}

}  // namespace

TriangleSoup read_obj(std::string_view bytes, const std::string& name, const ReadOptions& options)
{
    const char* const begin  = check_text_encoding(bytes.data(), bytes.data() + bytes.size(), name);
    const char* const end    = bytes.data() + bytes.size();
    const unsigned    pieces = parse_pieces(static_cast<std::size_t>(end - begin), options);
    return threaded_or_serial(
        pieces, [&] { return read_pieces(begin, end, name, pieces); },
        [&] { return ObjParser(bytes, name).run(); });
}

}  // namespace rxmesh::io::detail
