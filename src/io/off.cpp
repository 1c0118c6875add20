// Object File Format (geomview OFF) reader: OFF, COFF, NOFF, CNOFF, STOFF and
// the other [ST][C][N]OFF spellings, ASCII only.
//
// A vertex record is x y z followed by optional normals / colors / texture
// coordinates whose number depends on the header letters (and, for colors,
// on the writer), so each record is read as "x y z, ignore the rest of the
// line". Faces are "n i1 .. in [color]", also one per line. A large file's
// records are cut at line ends into pieces; each piece counts its records,
// then parses them knowing which record it starts at (parallel_parse.h).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parallel_parse.h"
#include "parse_util.h"

namespace rxmesh::io::detail {
namespace {

class OffParser : TextParser
{
   public:
    using TextParser::TextParser;

    //! A piece of the records of a file whose header promised nv vertices
    //! and nf faces.
    OffParser(std::string_view piece, const std::string& name, std::uint64_t nv, std::uint64_t nf)
        : TextParser(piece, name), m_nv(nv), m_nf(nf)
    {
    }

    //! The header; returns where the records start.
    const char* read_header() { return header(check_text_encoding(m_begin, m_end, m_name)); }
    std::uint64_t num_vertices() const { return m_nv; }
    std::uint64_t num_faces() const { return m_nf; }

    //! The whole file, serially.
    TriangleSoup run()
    {
        const char*  p = read_header();
        TriangleSoup soup;
        soup.positions.reserve(m_nv);
        soup.faces.reserve(m_nf);
        for (std::uint64_t i = 0; i < m_nv; ++i)
            p = vertex(p, i, soup);
        for (std::uint64_t i = 0; i < m_nf; ++i)
            p = face(p, i, soup);
        // Anything after the last face (often nothing, sometimes an edge
        // list or trailing blanks) is not part of the mesh.
        require_faces(soup, m_name);
        return soup;
    }

    //! The piece's records, the first being record `first` of the file;
    //! records past the last face are not read.
    TriangleSoup run_piece(std::uint64_t first, std::uint64_t records)
    {
        // Room for the piece's records, so that its arrays never move (see
        // obj.cpp's run_piece).
        TriangleSoup        soup;
        const std::uint64_t last = std::min(first + records, m_nv + m_nf);
        if (first < m_nv) soup.positions.reserve(std::min(last, m_nv) - first);
        if (last > m_nv) soup.faces.reserve(last - std::max(first, m_nv));
        const char*   p = m_begin;
        for (std::uint64_t r = first; r < m_nv + m_nf; ++r) {
            p = next_token(p);
            if (p >= m_end) break;
            p = r < m_nv ? vertex(p, r, soup) : face(p, r - m_nv, soup);
        }
        return soup;
    }

   private:
    // Next token, skipping blanks, empty lines and '#' comments.
    const char* next_token(const char* p) { return TextParser::next_token(p, '#'); }

    bool is_delim(const char* p) const
    {
        return p >= m_end || is_space(*p) || *p == '#';
    }

    std::uint64_t count(const char*& p, const char* what)
    {
        std::int64_t v = 0;
        const char*  q = parse_int(p, m_end, v);
        if (q == nullptr || !is_delim(q) || v < 0)
            parse_error_line(m_name, m_line,
                             std::string("expected the ") + what +
                                 " count (a non-negative integer), found " + describe(p, m_end));
        p = q;
        return static_cast<std::uint64_t>(v);
    }

    const char* header(const char* p)
    {
        p = next_token(p);
        if (p < m_end && !is_digit(*p)) {
            // Keyword: [ST][C][N][4][n]OFF. The keyword is optional in
            // geomview's spec, hence the digit test above.
            const char* k = p;
            while (p < m_end && !is_space(*p) && *p != '#')
                ++p;
            std::string_view key(k, static_cast<std::size_t>(p - k));
            if (key.size() < 3 || key.substr(key.size() - 3) != "OFF")
                parse_error_line(m_name, m_line,
                                 "expected an OFF header (OFF, COFF, NOFF, ...), found " +
                                     describe(k, m_end));
            std::string_view prefix = key.substr(0, key.size() - 3);
            if (prefix.substr(0, 2) == "ST")
                prefix.remove_prefix(2);
            if (!prefix.empty() && prefix.front() == 'C')
                prefix.remove_prefix(1);
            if (!prefix.empty() && prefix.front() == 'N')
                prefix.remove_prefix(1);
            if (!prefix.empty() && (prefix.front() == '4' || prefix.front() == 'n'))
                parse_error_line(m_name, m_line,
                                 "4OFF / nOFF (non-3D vertices) are not supported");
            if (!prefix.empty())
                parse_error_line(m_name, m_line,
                                 "unknown OFF header '" + std::string(key) + "'");
            const char* q = skip_blanks(p, m_end);
            if (q + 6 <= m_end && std::string_view(q, 6) == "BINARY")
                parse_error_line(m_name, m_line, "binary OFF is not supported");
        }
        // Counts: on the keyword's line or a later one.
        p    = next_token(p);
        m_nv = count(p, "vertex");
        p    = next_token(p);
        m_nf = count(p, "face");
        // The edge count is optional and unused.
        p = skip_blanks(p, m_end);
        if (p < m_end && is_digit(*p))
            count(p, "edge");
        p = skip_blanks(p, m_end);
        if (p < m_end && *p != '\n' && *p != '#')
            parse_error_line(m_name, m_line,
                             "expected end of line after the counts, found " + describe(p, m_end));

        // Refuse counts the remaining bytes cannot hold before reserving
        // anything: a vertex needs at least "0 0 0\n" (6 bytes), a face
        // "3 0 1 2\n" (8 bytes); the last record may lack its newline.
        const std::uint64_t left = static_cast<std::uint64_t>(m_end - p);
        if (m_nv > left || m_nf > left || m_nv * 6 + m_nf * 8 > left + 1)
            parse_error_line(m_name, m_line,
                             "header promises " + std::to_string(m_nv) + " vertices and " +
                                 std::to_string(m_nf) + " faces but only " +
                                 std::to_string(left) + " bytes follow");
        if (m_nv >= UINT32_MAX)
            invalid_line(m_name, m_line, "more than 2^32-1 vertices");
        return p;
    }

    const char* vertex(const char* p, std::uint64_t i, TriangleSoup& soup)
    {
        p = next_token(p);
        Vec3f v{};
        for (int k = 0; k < 3; ++k) {
            p             = skip_blanks(p, m_end);
            const char* q = parse_float(p, m_end, v[k]);
            if (q == nullptr || !is_delim(q))
                parse_error_line(m_name, m_line,
                                 "expected coordinate " + std::string(1, "xyz"[k]) + " of vertex " +
                                     std::to_string(i) + " (of " + std::to_string(m_nv) +
                                     "), found " + describe(p, m_end));
            p = q;
        }
        if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
            invalid_line(m_name, m_line,
                         "vertex " + std::to_string(i) + " has a NaN or infinite coordinate");
        soup.positions.push_back(v);
        return find_eol(p, m_end);  // normals, colors, texture coordinates
    }

    const char* face(const char* p, std::uint64_t i, TriangleSoup& soup)
    {
        p               = next_token(p);
        std::int64_t n  = 0;
        const char*  q  = parse_int(p, m_end, n);
        if (q == nullptr || !is_delim(q))
            parse_error_line(m_name, m_line,
                             "expected the vertex count of face " + std::to_string(i) + " (of " +
                                 std::to_string(m_nf) + "), found " + describe(p, m_end));
        if (n < 3)
            parse_error_line(m_name, m_line,
                             "face " + std::to_string(i) + " has " + std::to_string(n) +
                                 " vertices (expected at least 3)");
        if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(m_end - q) / 2)
            parse_error_line(m_name, m_line,
                             "face " + std::to_string(i) + " promises " + std::to_string(n) +
                                 " vertices but the line is shorter");
        p = q;
        m_poly.clear();
        for (std::int64_t k = 0; k < n; ++k) {
            p              = skip_blanks(p, m_end);
            std::int64_t v = 0;
            q              = parse_int(p, m_end, v);
            if (q == nullptr || !is_delim(q))
                parse_error_line(m_name, m_line,
                                 "expected vertex index " + std::to_string(k + 1) + " of " +
                                     std::to_string(n) + " in face " + std::to_string(i) +
                                     ", found " + describe(p, m_end));
            if (v < 0 || static_cast<std::uint64_t>(v) >= m_nv)
                invalid_line(m_name, m_line,
                             "vertex index " + std::to_string(v) + " in face " +
                                 std::to_string(i) + " out of range (the file has " +
                                 std::to_string(m_nv) + " vertices)");
            m_poly.push_back(static_cast<std::uint32_t>(v));
            p = q;
        }
        FaceSink{soup}.polygon(m_poly.data(), m_poly.size());
        return find_eol(p, m_end);  // optional face color
    }

    std::uint64_t              m_nv   = 0;
    std::uint64_t              m_nf   = 0;
    std::vector<std::uint32_t> m_poly;
};

//! The records cut into `pieces` parsed on threads and joined in order.
//! \throw anything when the serial parse must decide.
TriangleSoup read_pieces(std::string_view bytes, const std::string& name, unsigned pieces)
{
    OffParser         whole(bytes, name);
    const char* const records = whole.read_header();
    const char* const end     = bytes.data() + bytes.size();
    const std::vector<std::string_view> cuts = split_at_lines(records, end, pieces);
    const unsigned                      n    = static_cast<unsigned>(cuts.size());
    const std::uint64_t                 nv = whole.num_vertices(), nf = whole.num_faces();
    const std::vector<std::uint64_t>    first = record_starts(cuts, '#');  // vertex or face lines
    if (first[n] < nv + nf) throw SerialOnly{};  // truncated: its message says where

    std::vector<TriangleSoup> parts(n);
    run_pieces(n, [&](unsigned i) {
        parts[i] = OffParser(cuts[i], name, nv, nf).run_piece(first[i], first[i + 1] - first[i]);
    });
    TriangleSoup soup = join_soups(parts);
    require_faces(soup, name);
    return soup;
}

}  // namespace

TriangleSoup read_off(std::string_view bytes, const std::string& name, const ReadOptions& options)
{
    const unsigned pieces = parse_pieces(bytes.size(), options);
    return threaded_or_serial(
        pieces, [&] { return read_pieces(bytes, name, pieces); },
        [&] { return OffParser(bytes, name).run(); });
}

}  // namespace rxmesh::io::detail
