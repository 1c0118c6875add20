// STL reader, ascii and binary.
//
// The two encodings are told apart by content, not by the first word: many
// binary exporters put "solid" at the start of their 80-byte header. A file
// whose size is exactly 84 + 50 * (the header's triangle count) is binary;
// otherwise a file starting with "solid" is ascii.
//
// STL stores every triangle with its own three corners, so the soup gets
// three new vertices per triangle; welding them is a later (GPU) step.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "parallel_parse.h"
#include "parse_util.h"

namespace rxmesh::io::detail {
namespace {

constexpr std::uint64_t kHeaderBytes   = 84;
constexpr std::uint64_t kTriangleBytes = 50;

std::uint32_t load_u32_le(const unsigned char* p)
{
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}

float load_f32_le(const unsigned char* p)
{
    const std::uint32_t u = load_u32_le(p);
    float               f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

bool starts_with_solid(std::string_view bytes)
{
    std::size_t i = 0;
    while (i < bytes.size() && is_space(bytes[i]))
        ++i;
    return bytes.substr(i, 5) == "solid" && (i + 5 == bytes.size() || is_space(bytes[i + 5]));
}

//! The triangles of a binary STL in order, serially; the first non-finite
//! coordinate is an error.
TriangleSoup read_binary_serial(std::string_view bytes, std::uint64_t count, const std::string& name)
{
    const auto*  u = reinterpret_cast<const unsigned char*>(bytes.data());
    TriangleSoup soup;
    soup.positions.reserve(count * 3);  // count was checked against the size
    soup.faces.reserve(count);
    for (std::uint64_t t = 0; t < count; ++t) {
        const std::uint64_t base = kHeaderBytes + t * kTriangleBytes + 12;  // skip normal
        for (int c = 0; c < 3; ++c) {
            const std::uint64_t at = base + 12 * c;
            Vec3f v{load_f32_le(u + at), load_f32_le(u + at + 4), load_f32_le(u + at + 8)};
            if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
                invalid_byte(name, at,
                             "triangle " + std::to_string(t) + " has a NaN or infinite coordinate");
            soup.positions.push_back(v);
        }
        const auto b = static_cast<std::uint32_t>(3 * t);
        soup.faces.push_back({b, b + 1, b + 2});
    }
    require_faces(soup, name);
    return soup;
}

//! The same on threads (records have fixed places); a non-finite coordinate
//! anywhere sends the file to the serial read, for its message.
TriangleSoup read_binary(std::string_view bytes, std::uint64_t count, const std::string& name,
                         const ReadOptions& options)
{
    if (count * 3 >= UINT32_MAX)
        invalid_byte(name, 80, "more than 2^32-1 vertices");
    const unsigned pieces = parse_pieces(bytes.size(), options);
    if (pieces <= 1 || count == 0)
        return read_binary_serial(bytes, count, name);
    const auto*  u = reinterpret_cast<const unsigned char*>(bytes.data());
    std::vector<TriangleSoup> parts(pieces);
    std::vector<char> finite(pieces, 0);
    run_pieces(pieces, [&](unsigned p) {
        const std::uint64_t t0 = count * p / pieces, t1 = count * (p + 1) / pieces;
        TriangleSoup&       part = parts[p];
        part.positions.resize(3 * (t1 - t0));
        part.faces.resize(t1 - t0);
        bool ok = true;
        for (std::uint64_t t = t0; t < t1; ++t) {
            const std::uint64_t base = kHeaderBytes + t * kTriangleBytes + 12;
            for (int c = 0; c < 3; ++c) {
                Vec3f& v = part.positions[3 * (t - t0) + c];
                for (int k = 0; k < 3; ++k) {
                    v[k] = load_f32_le(u + base + 12 * c + 4 * k);
                    ok   = ok && std::isfinite(v[k]);
                }
            }
            const auto b         = static_cast<std::uint32_t>(3 * t);
            part.faces[t - t0] = {b, b + 1, b + 2};
        }
        finite[p] = ok;
    });
    for (unsigned p = 0; p < pieces; ++p)
        if (!finite[p])
            return read_binary_serial(bytes, count, name);
    return join_soups(parts);
}

class AsciiStl : TextParser
{
   public:
    using TextParser::TextParser;

    TriangleSoup run()
    {
        const char* p      = m_begin;
        int         solids = 0;
        for (;;) {
            p = next_token(p);
            if (p >= m_end)
                break;
            p = expect(p, "solid", "'solid'");
            p = find_eol(p, m_end);  // the solid's name
            ++solids;
            for (;;) {
                p = next_token(p);
                std::string_view k;
                const char*      after = keyword(p, k);
                if (k == "endsolid") {
                    p = find_eol(after, m_end);
                    break;
                }
                if (k != "facet")
                    fail(p, "'facet' or 'endsolid'");
                p = facet(after);
            }
        }
        if (solids == 0)
            fail(p, "'solid'");
        require_faces(m_soup, m_name);
        return std::move(m_soup);
    }

   private:
    [[noreturn]] void fail(const char* p, const std::string& expected)
    {
        parse_error_line(m_name, m_line, "expected " + expected + ", found " + describe(p, m_end));
    }

    // The word at p, lower-cased into m_word (some exporters shout).
    const char* keyword(const char* p, std::string_view& out)
    {
        std::size_t n = 0;
        while (p + n < m_end && !is_space(p[n]) && n < sizeof m_word) {
            const char c = p[n];
            m_word[n]    = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
            ++n;
        }
        out = std::string_view(m_word, n);
        return p + n;
    }

    const char* expect(const char* p, std::string_view word, const char* what)
    {
        p = next_token(p);
        std::string_view k;
        const char*      after = keyword(p, k);
        if (k != word || (after < m_end && !is_space(*after)))
            fail(p, what);
        return after;
    }

    const char* number(const char* p, float& v, const char* what)
    {
        p             = skip_blanks(p, m_end);
        const char* q = parse_float(p, m_end, v);
        if (q == nullptr || (q < m_end && !is_space(*q)))
            fail(p, what);
        return q;
    }

    const char* facet(const char* p)
    {
        p = expect(p, "normal", "'normal'");
        float n;
        for (int k = 0; k < 3; ++k)
            p = number(p, n, "a normal component");  // unused, may even be NaN
        p = expect(p, "outer", "'outer loop'");
        p = expect(p, "loop", "'outer loop'");
        const std::uint64_t first = m_soup.positions.size();
        for (;;) {
            p = next_token(p);
            std::string_view k;
            const char*      after = keyword(p, k);
            if (k == "endloop") {
                p = after;
                break;
            }
            if (k != "vertex")
                fail(p, "'vertex' or 'endloop'");
            p = after;
            Vec3f v;
            for (int c = 0; c < 3; ++c)
                p = number(p, v[c], "a vertex coordinate");
            if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
                invalid_line(m_name, m_line, "vertex has a NaN or infinite coordinate");
            if (m_soup.positions.size() >= UINT32_MAX)
                invalid_line(m_name, m_line, "more than 2^32-1 vertices");
            m_soup.positions.push_back(v);
        }
        const std::uint64_t corners = m_soup.positions.size() - first;
        if (corners < 3)
            parse_error_line(m_name, m_line,
                             "facet has " + std::to_string(corners) + " vertices (expected 3)");
        // Polygonal "facets" (seen in the wild) are fan-triangulated.
        const auto b = static_cast<std::uint32_t>(first);
        for (std::uint32_t i = 1; i + 1 < corners; ++i)
            m_soup.faces.push_back({b, b + i, b + i + 1});
        return expect(p, "endfacet", "'endfacet'");
    }

    TriangleSoup m_soup;
    char         m_word[16];
};

}  // namespace

TriangleSoup read_stl(std::string_view bytes, const std::string& name, const ReadOptions& options)
{
    const std::uint64_t size  = bytes.size();
    std::uint64_t       count = 0;
    if (size >= kHeaderBytes) {
        count = load_u32_le(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
        if (kHeaderBytes + kTriangleBytes * count == size)
            return read_binary(bytes, count, name, options);
    }
    if (starts_with_solid(bytes)) {
        check_text_encoding(bytes.data(), bytes.data() + bytes.size(), name);
        return AsciiStl(bytes, name).run();
    }
    if (size >= 2 && ((bytes[0] == '\xFE' && bytes[1] == '\xFF') ||
                      (bytes[0] == '\xFF' && bytes[1] == '\xFE')))
        parse_error_byte(name, 0, "UTF-16 text is not supported (convert the file to UTF-8 or ASCII)");
    if (size < kHeaderBytes)
        parse_error_byte(name, 0,
                         "not an STL file: " + std::to_string(size) +
                             " bytes, too short for binary STL (84-byte header) and no "
                             "ascii 'solid' keyword");
    const std::uint64_t need = kHeaderBytes + kTriangleBytes * count;
    if (need > size)
        parse_error_byte(name, 80,
                         "binary STL header promises " + std::to_string(count) +
                             " triangles (" + std::to_string(need) + " bytes) but the file has " +
                             std::to_string(size) + " bytes");
    // Trailing bytes after the last triangle: some exporters pad; ignore.
    return read_binary(bytes, count, name, options);
}

}  // namespace rxmesh::io::detail
