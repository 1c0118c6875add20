// Internal helpers shared by the mesh readers: number parsing, error
// reporting and the triangle sink that every reader feeds.
//
// Not installed; only src/io/*.cpp include it. All parsers work on a
// [begin, end) byte range without a terminating NUL (read_memory() gets a
// string_view), so every scan is bounded by `end`.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"

namespace rxmesh::io::detail {

// ---- errors ---------------------------------------------------------------

[[noreturn]] inline void parse_error_line(const std::string& file,
                                          std::uint64_t      line,
                                          const std::string& what)
{
    throw ParseError(file, ParseError::Where::Line, line, what);
}

[[noreturn]] inline void parse_error_byte(const std::string& file,
                                          std::uint64_t      offset,
                                          const std::string& what)
{
    throw ParseError(file, ParseError::Where::ByteOffset, offset, what);
}

// Unusable data in a well-formed file (bad index, NaN). Same "file:line: what"
// layout as ParseError so that messages read alike, but the weaker type says
// the syntax itself was fine.
[[noreturn]] inline void invalid_line(const std::string& file,
                                      std::uint64_t      line,
                                      const std::string& what)
{
    throw InvalidInputError(file + ":" + std::to_string(line) + ": " + what);
}

[[noreturn]] inline void invalid_byte(const std::string& file,
                                      std::uint64_t      offset,
                                      const std::string& what)
{
    throw InvalidInputError(file + ": byte " + std::to_string(offset) + ": " +
                            what);
}

//! A short, printable quote of the text at p for "expected X, found Y".
inline std::string describe(const char* p, const char* end)
{
    if (p >= end)
        return "end of file";
    if (*p == '\n' || *p == '\r')
        return "end of line";
    std::string s = "'";
    for (int i = 0; i < 16 && p < end && *p != '\n' && *p != '\r'; ++i, ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 32 && c < 127) {
            s += static_cast<char>(c);
        } else {
            static const char* hex = "0123456789abcdef";
            s += "\\x";
            s += hex[c >> 4];
            s += hex[c & 15];
        }
    }
    if (p < end && *p != '\n' && *p != '\r')
        s += "...";
    return s + "'";
}

//! Text formats: UTF-16 files are recognised by their byte order mark or by
//! NUL bytes early on, and rejected with a clear message instead of a
//! confusing "expected a number" somewhere later. A UTF-8 BOM is skipped.
inline const char* check_text_encoding(const char*        begin,
                                       const char*        end,
                                       const std::string& name)
{
    const std::size_t n = static_cast<std::size_t>(end - begin);
    const auto*       u = reinterpret_cast<const unsigned char*>(begin);
    if (n >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) || (u[0] == 0xFF && u[1] == 0xFE)))
        parse_error_byte(name, 0, "UTF-16 text is not supported (convert the file to UTF-8 or ASCII)");
    if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
        return begin + 3;
    const std::size_t probe = n < 64 ? n : 64;
    if (probe > 0 && std::memchr(begin, '\0', probe) != nullptr)
        parse_error_byte(name, static_cast<std::uint64_t>(
                             static_cast<const char*>(std::memchr(begin, '\0', probe)) - begin),
                         "NUL byte in a text file (UTF-16 or binary data?)");
    return begin;
}

// ---- character classes ----------------------------------------------------

inline bool is_digit(char c) { return static_cast<unsigned>(c - '0') < 10u; }
//! Blanks inside a line. '\r' counts as a blank so that CRLF files need no
//! special casing: the '\r' before '\n' is just trailing space.
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_space(char c) { return is_blank(c) || c == '\n'; }

inline const char* skip_blanks(const char* p, const char* end)
{
    while (p < end && is_blank(*p))
        ++p;
    return p;
}

//! Pointer to the '\n' ending the line at p, or end.
inline const char* find_eol(const char* p, const char* end)
{
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    return nl ? static_cast<const char*>(nl) : end;
}

// ---- text parsers ---------------------------------------------------------

//! Base of the format parsers: the [begin, end) byte range, the name used in
//! messages and the current 1-based line (for text formats).
class TextParser
{
   public:
    TextParser(std::string_view bytes, const std::string& name)
        : m_begin(bytes.data()), m_end(bytes.data() + bytes.size()), m_name(name)
    {
    }

   protected:
    //! The next token at or after p: skips blanks and line ends (counting
    //! lines) and, when `comment` is not NUL, everything from that character
    //! to the end of its line. Returns m_end when no token is left.
    const char* next_token(const char* p, char comment = '\0')
    {
        for (;;) {
            p = skip_blanks(p, m_end);
            if (p < m_end && *p == '\n') {
                ++m_line;
                ++p;
            } else if (comment != '\0' && p < m_end && *p == comment) {
                p = find_eol(p, m_end);
            } else {
                return p;
            }
        }
    }

    const char*        m_begin;
    const char*        m_end;
    const std::string& m_name;
    std::uint64_t      m_line = 1;
};

// ---- numbers --------------------------------------------------------------

//! Decimal exponent of the leading digit of the unsigned number text in
//! [p, end): 1234.5 -> 3, 0.01 -> -2, 5e-7 -> -7 (0 for zero). Saturating;
//! only used to tell overflow from underflow when even double is out of range.
inline std::int64_t decimal_magnitude(const char* p, const char* end)
{
    constexpr std::int64_t kCap  = std::int64_t(1) << 40;
    bool                   found = false;
    std::int64_t           mag   = 0;
    while (p < end && is_digit(*p)) {
        if (!found && *p != '0') {
            found = true;
            mag   = -1;
        }
        if (found && mag < kCap)
            ++mag;
        ++p;
    }
    if (p < end && *p == '.') {
        ++p;
        std::int64_t j = 0;
        while (p < end && is_digit(*p)) {
            if (j < kCap)
                ++j;
            if (!found && *p != '0') {
                found = true;
                mag   = -j;
            }
            ++p;
        }
    }
    if (!found)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        ++p;
        const bool   neg = p < end && *p == '-';
        std::int64_t e   = 0;
        if (p < end && (*p == '-' || *p == '+'))
            ++p;
        while (p < end && is_digit(*p)) {
            if (e < kCap)
                e = e * 10 + (*p - '0');
            ++p;
        }
        mag += neg ? -e : e;
    }
    return mag;
}

//! Slow path: std::from_chars (libstdc++ >= 11, correctly rounded). Handles
//! long mantissas, large exponents, "nan" and "inf" (the callers turn those
//! into InvalidInputError). Returns nullptr when no number is at p.
inline const char* parse_float_slow(const char* p, const char* end, float& out)
{
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        ++p;
    }
    // from_chars accepts a '-' itself; a second sign ("+-1") is not a number.
    if (p >= end || *p == '-' || *p == '+')
        return nullptr;
    float v   = 0.f;
    auto  res = std::from_chars(p, end, v, std::chars_format::general);
    if (res.ec == std::errc::invalid_argument)
        return nullptr;
    if (res.ec == std::errc::result_out_of_range) {
        // Too large or too small for float: decide via double, which in turn
        // only overflows for absurd exponents (then infinity or zero).
        double d    = 0.0;
        auto   resd = std::from_chars(p, end, d, std::chars_format::general);
        if (resd.ec == std::errc()) {
            v = static_cast<float>(d);
        } else {
            v = decimal_magnitude(p, res.ptr) > 0 ? HUGE_VALF : 0.f;
        }
    }
    out = neg ? -v : v;
    return res.ptr;
}

//! Parses a float at p (optional sign, digits, optional fraction and
//! exponent). Returns the pointer past it, or nullptr when there is none.
//!
//! Fast path (Clinger): a mantissa below 2^53 and |exponent| <= 22 converts
//! to double with a single correctly rounded operation. Rounding that double
//! to float is then exact unless the double lies exactly halfway between two
//! floats (the only case where double rounding can differ); that case and
//! everything unusual goes to from_chars, so results are always correctly
//! rounded.
inline const char* parse_float(const char* p, const char* end, float& out)
{
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                        1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                        1e18, 1e19, 1e20, 1e21, 1e22};
    const char* const start = p;
    bool              neg   = false;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        ++p;
    }
    std::uint64_t m  = 0;
    int           nd = 0;  // digits accumulated in m (leading zeros too)
    while (p < end && is_digit(*p)) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++nd;
        ++p;
    }
    int frac = 0;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && is_digit(*p)) {
            m = m * 10 + static_cast<unsigned>(*p - '0');
            ++nd;
            ++frac;
            ++p;
        }
    }
    if (nd == 0 || nd > 19)  // "nan", "inf", ".", or m may have wrapped
        return parse_float_slow(start, end, out);
    int e = -frac;
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char* q      = p + 1;
        bool        eneg   = false;
        if (q < end && (*q == '-' || *q == '+')) {
            eneg = *q == '-';
            ++q;
        }
        int ex = 0, ned = 0;
        while (q < end && is_digit(*q) && ned < 5) {
            ex = ex * 10 + (*q - '0');
            ++ned;
            ++q;
        }
        if (ned == 0 || ned >= 5)  // "1e" / "1e+" / huge exponents
            return parse_float_slow(start, end, out);
        e += eneg ? -ex : ex;
        p = q;
    }
    if (m == 0) {
        out = neg ? -0.f : 0.f;
        return p;
    }
    if (m > (std::uint64_t(1) << 53) || e < -22 || e > 22)
        return parse_float_slow(start, end, out);
    double d = static_cast<double>(m);
    d        = e < 0 ? d / kPow10[-e] : d * kPow10[e];
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    // 29 = 52 - 23 mantissa bits that the float conversion drops.
    if ((bits & 0x1FFFFFFFu) == 0x10000000u)
        return parse_float_slow(start, end, out);
    const float f = static_cast<float>(d);
    out           = neg ? -f : f;
    return p;
}

//! Parses an optionally signed decimal integer that fits in int64.
//! Returns nullptr when there is none or it overflows.
inline const char* parse_int(const char* p, const char* end, std::int64_t& out)
{
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        ++p;
    }
    const char*   first = p;
    std::uint64_t v     = 0;
    while (p < end && is_digit(*p)) {
        if (v > (INT64_MAX - 9) / 10)  // the next digit could overflow int64
            return nullptr;
        v = v * 10 + static_cast<unsigned>(*p - '0');
        ++p;
    }
    if (p == first)
        return nullptr;
    out = neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    return p;
}

// ---- output ---------------------------------------------------------------

//! Collects fan-triangulated polygons into a soup, dropping triangles that
//! repeat a vertex. Indices must already be validated by the caller.
struct FaceSink
{
    TriangleSoup& soup;

    void polygon(const std::uint32_t* v, std::size_t n)
    {
        for (std::size_t i = 1; i + 1 < n; ++i)
            triangle(v[0], v[i], v[i + 1]);
    }

    void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c)
    {
        if (a == b || b == c || a == c)
            ++soup.dropped_faces;
        else
            soup.faces.push_back({a, b, c});
    }
};

//! Every reader ends here: a mesh needs at least one face. Point clouds and
//! empty files are rejected with a typed error, not returned as empty soups.
inline void require_faces(const TriangleSoup& soup, const std::string& name)
{
    if (soup.faces.empty()) {
        std::string what = name + ": no faces";
        if (soup.dropped_faces > 0)
            what += " (all " + std::to_string(soup.dropped_faces) +
                    " triangles repeat a vertex)";
        else if (!soup.positions.empty())
            what += " (" + std::to_string(soup.positions.size()) +
                    " vertices but no faces: point clouds are not meshes)";
        else
            what += " (empty file or no mesh data)";
        throw InvalidInputError(what);
    }
}

//! Float color component -> byte, where [0,1] maps to [0,255].
inline std::uint8_t unit_to_byte(float v)
{
    if (!(v > 0.f))
        return 0;
    if (v >= 1.f)
        return 255;
    return static_cast<std::uint8_t>(std::lround(v * 255.f));
}

inline std::uint8_t clamp_to_byte(double v)
{
    if (!(v > 0.0))
        return 0;
    if (v >= 255.0)
        return 255;
    return static_cast<std::uint8_t>(std::lround(v));
}

// ---- per-format entry points (one .cpp each) ------------------------------

TriangleSoup read_obj(std::string_view bytes, const std::string& name, const ReadOptions& options);
TriangleSoup read_off(std::string_view bytes, const std::string& name, const ReadOptions& options);
TriangleSoup read_ply(std::string_view bytes, const std::string& name, const ReadOptions& options);
TriangleSoup read_stl(std::string_view bytes, const std::string& name, const ReadOptions& options);

}  // namespace rxmesh::io::detail
