// Stanford PLY reader: ascii, binary_little_endian and binary_big_endian.
//
// The header declares elements and their properties in file order; the body
// is read element by element in that order. Only `vertex` (x, y, z and
// optional red/green/blue) and `face` (the vertex_indices / vertex_index
// list) are kept; every other element and property is parsed past, which in
// binary files means computing its byte size from its declared types.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parse_util.h"

namespace rxmesh::io::detail {
namespace {

enum class Type : std::uint8_t
{
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64
};

bool type_from_name(std::string_view s, Type& t)
{
    struct Entry
    {
        const char* name;
        Type        type;
    };
    static const Entry table[] = {
        {"char", Type::I8},    {"int8", Type::I8},     {"uchar", Type::U8},
        {"uint8", Type::U8},   {"short", Type::I16},   {"int16", Type::I16},
        {"ushort", Type::U16}, {"uint16", Type::U16},  {"int", Type::I32},
        {"int32", Type::I32},  {"uint", Type::U32},    {"uint32", Type::U32},
        {"float", Type::F32},  {"float32", Type::F32}, {"double", Type::F64},
        {"float64", Type::F64}};
    for (const auto& e : table)
        if (s == e.name) {
            t = e.type;
            return true;
        }
    return false;
}

std::size_t type_size(Type t)
{
    switch (t) {
        case Type::I8:
        case Type::U8: return 1;
        case Type::I16:
        case Type::U16: return 2;
        case Type::I32:
        case Type::U32:
        case Type::F32: return 4;
        case Type::F64: return 8;
    }
    return 0;
}

bool is_float_type(Type t) { return t == Type::F32 || t == Type::F64; }

struct Property
{
    std::string name;
    Type        type       = Type::F32;  // item type for lists
    bool        is_list    = false;
    Type        count_type = Type::U8;
};

struct Element
{
    std::string           name;
    std::uint64_t         count = 0;
    std::vector<Property> props;
    std::uint64_t         line  = 0;  // header line, for messages
};

enum class Encoding
{
    Ascii,
    BinaryLE,
    BinaryBE
};

// Roles of vertex properties that the reader keeps.
enum Role : int
{
    kX,
    kY,
    kZ,
    kR,
    kG,
    kB,
    kRoles
};

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

// A binary value of type t as double (exact for every PLY type).
double load_as_double(const unsigned char* p, Type t, bool swap)
{
    switch (t) {
        case Type::I8: return static_cast<std::int8_t>(*p);
        case Type::U8: return *p;
        case Type::I16: return load<std::int16_t>(p, swap);
        case Type::U16: return load<std::uint16_t>(p, swap);
        case Type::I32: return load<std::int32_t>(p, swap);
        case Type::U32: return load<std::uint32_t>(p, swap);
        case Type::F32: return load<float>(p, swap);
        case Type::F64: return load<double>(p, swap);
    }
    return 0.0;
}

// Integer types as int64; floats are not allowed where an integer is needed.
std::int64_t load_as_int(const unsigned char* p, Type t, bool swap)
{
    switch (t) {
        case Type::I8: return static_cast<std::int8_t>(*p);
        case Type::U8: return *p;
        case Type::I16: return load<std::int16_t>(p, swap);
        case Type::U16: return load<std::uint16_t>(p, swap);
        case Type::I32: return load<std::int32_t>(p, swap);
        case Type::U32: return load<std::uint32_t>(p, swap);
        default: return 0;
    }
}

class PlyParser
{
   public:
    PlyParser(std::string_view bytes, const std::string& name)
        : m_begin(bytes.data()), m_end(bytes.data() + bytes.size()), m_name(name)
    {
    }

    TriangleSoup run()
    {
        const char* body = header();
        check_sizes(body);
        for (std::size_t e = 0; e < m_elements.size(); ++e)
            if (static_cast<int>(e) == m_vertex_element)
                m_soup.positions.reserve(m_elements[e].count);
            else if (static_cast<int>(e) == m_face_element)
                m_soup.faces.reserve(m_elements[e].count);
        if (m_encoding == Encoding::Ascii)
            ascii_body(body);
        else
            binary_body(body);
        require_faces(m_soup, m_name);
        return std::move(m_soup);
    }

   private:
    // ---- header -----------------------------------------------------------

    static std::vector<std::string_view> split(const char* p, const char* e)
    {
        std::vector<std::string_view> out;
        while (true) {
            while (p < e && is_blank(*p))
                ++p;
            if (p >= e)
                return out;
            const char* s = p;
            while (p < e && !is_blank(*p))
                ++p;
            out.emplace_back(s, static_cast<std::size_t>(p - s));
        }
    }

    const char* header()
    {
        const char* p = m_begin;
        if (m_end - p < 3 || std::string_view(p, 3) != "ply")
            parse_error_line(m_name, 1, "expected the magic word 'ply', found " + describe(p, m_end));
        bool have_format = false;
        for (;;) {
            if (p >= m_end)  // reported on the last line the file has
                parse_error_line(m_name, m_line > 1 ? m_line - 1 : 1,
                                 "header ends without 'end_header'");
            const char* eol = find_eol(p, m_end);
            const auto  tok = split(p, eol);
            p               = eol < m_end ? eol + 1 : m_end;
            if (m_line == 1) {
                if (tok.size() != 1 || tok[0] != "ply")
                    parse_error_line(m_name, 1, "expected 'ply' alone on the first line");
            } else if (tok.empty() || tok[0] == "comment" || tok[0] == "obj_info") {
                // nothing
            } else if (tok[0] == "format") {
                if (tok.size() != 3)
                    parse_error_line(m_name, m_line, "expected 'format <encoding> 1.0'");
                if (tok[1] == "ascii")
                    m_encoding = Encoding::Ascii;
                else if (tok[1] == "binary_little_endian")
                    m_encoding = Encoding::BinaryLE;
                else if (tok[1] == "binary_big_endian")
                    m_encoding = Encoding::BinaryBE;
                else
                    parse_error_line(m_name, m_line,
                                     "unknown format '" + std::string(tok[1]) +
                                         "' (expected ascii, binary_little_endian or binary_big_endian)");
                have_format = true;
            } else if (tok[0] == "element") {
                element(tok);
            } else if (tok[0] == "property") {
                property(tok);
            } else if (tok[0] == "end_header") {
                if (tok.size() != 1)
                    parse_error_line(m_name, m_line, "unexpected text after 'end_header'");
                break;
            }
            // Any other line is treated as a comment: Blender 2.4x wrote
            // "Created by Blender3D ..." without the comment keyword.
            ++m_line;
        }
        ++m_line;  // the body starts on the line after end_header
        if (!have_format)
            parse_error_line(m_name, m_line - 1, "header has no 'format' line");
        finish_header();
        return p;
    }

    void element(const std::vector<std::string_view>& tok)
    {
        if (tok.size() != 3)
            parse_error_line(m_name, m_line, "expected 'element <name> <count>'");
        std::int64_t count = 0;
        const char*  e     = tok[2].data() + tok[2].size();
        if (parse_int(tok[2].data(), e, count) != e || count < 0)
            parse_error_line(m_name, m_line,
                             "expected a non-negative element count, found '" + std::string(tok[2]) + "'");
        Element el;
        el.name  = std::string(tok[1]);
        el.count = static_cast<std::uint64_t>(count);
        el.line  = m_line;
        m_elements.push_back(std::move(el));
    }

    void property(const std::vector<std::string_view>& tok)
    {
        if (m_elements.empty())
            parse_error_line(m_name, m_line, "property before any element");
        Property prop;
        if (tok.size() == 5 && tok[1] == "list") {
            prop.is_list = true;
            if (!type_from_name(tok[2], prop.count_type) || !type_from_name(tok[3], prop.type))
                parse_error_line(m_name, m_line,
                                 "unknown type in '" + std::string(tok[2]) + " " + std::string(tok[3]) +
                                     "' (expected char, uchar, short, ushort, int, uint, float, double or int8..float64)");
            if (is_float_type(prop.count_type))
                parse_error_line(m_name, m_line, "a list count must have an integer type");
            prop.name = std::string(tok[4]);
        } else if (tok.size() == 3) {
            if (!type_from_name(tok[1], prop.type))
                parse_error_line(m_name, m_line,
                                 "unknown property type '" + std::string(tok[1]) +
                                     "' (expected char, uchar, short, ushort, int, uint, float, double or int8..float64)");
            prop.name = std::string(tok[2]);
        } else {
            parse_error_line(m_name, m_line,
                             "expected 'property <type> <name>' or 'property list <count type> <index type> <name>'");
        }
        m_elements.back().props.push_back(std::move(prop));
    }

    // Finds the vertex and face elements and the properties the reader uses.
    void finish_header()
    {
        for (std::size_t e = 0; e < m_elements.size(); ++e) {
            const Element& el = m_elements[e];
            if (el.name == "vertex") {
                if (m_vertex_element >= 0)
                    parse_error_line(m_name, el.line, "second 'vertex' element");
                m_vertex_element = static_cast<int>(e);
                for (int r = 0; r < kRoles; ++r)
                    m_role[r] = -1;
                static const char* xyz[] = {"x", "y", "z"};
                for (std::size_t i = 0; i < el.props.size(); ++i) {
                    const Property& pr = el.props[i];
                    for (int r = 0; r < 3; ++r)
                        if (pr.name == xyz[r])
                            m_role[r] = static_cast<int>(i);
                    if (pr.name == "red" || pr.name == "diffuse_red")
                        m_role[kR] = static_cast<int>(i);
                    if (pr.name == "green" || pr.name == "diffuse_green")
                        m_role[kG] = static_cast<int>(i);
                    if (pr.name == "blue" || pr.name == "diffuse_blue")
                        m_role[kB] = static_cast<int>(i);
                }
                for (int r = 0; r < kRoles; ++r)
                    if (m_role[r] >= 0 && el.props[m_role[r]].is_list) {
                        if (r < 3)
                            parse_error_line(m_name, el.line,
                                             "vertex property '" + el.props[m_role[r]].name +
                                                 "' is a list (expected a scalar)");
                        m_role[r] = -1;
                    }
                if (m_role[kX] < 0 || m_role[kY] < 0 || m_role[kZ] < 0)
                    parse_error_line(m_name, el.line,
                                     "vertex element lacks an x, y or z property");
                m_has_colors = m_role[kR] >= 0 && m_role[kG] >= 0 && m_role[kB] >= 0;
            } else if (el.name == "face") {
                if (m_face_element >= 0)
                    parse_error_line(m_name, el.line, "second 'face' element");
                m_face_element = static_cast<int>(e);
                for (std::size_t i = 0; i < el.props.size(); ++i)
                    if (el.props[i].is_list &&
                        (el.props[i].name == "vertex_indices" || el.props[i].name == "vertex_index"))
                        m_face_list = static_cast<int>(i);
                if (m_face_list < 0 && el.count > 0)
                    parse_error_line(m_name, el.line,
                                     "face element lacks a 'vertex_indices' (or 'vertex_index') list property");
                if (m_face_list >= 0 && is_float_type(el.props[m_face_list].type))
                    parse_error_line(m_name, el.line, "face vertex indices must have an integer type");
            }
        }
        m_nv = m_vertex_element >= 0 ? m_elements[m_vertex_element].count : 0;
        if (m_nv >= UINT32_MAX)
            invalid_line(m_name, m_elements[m_vertex_element].line, "more than 2^32-1 vertices");
    }

    // Before reserving anything: every element instance needs at least its
    // scalar bytes (binary) or two bytes per value (ascii: a digit and a
    // separator), so counts beyond what the body can hold are refused.
    void check_sizes(const char* body)
    {
        const std::uint64_t left = static_cast<std::uint64_t>(m_end - body);
        std::uint64_t       need = 0;
        for (const Element& el : m_elements) {
            std::uint64_t per = 0;
            for (const Property& pr : el.props) {
                if (m_encoding == Encoding::Ascii)
                    per += 2;
                else
                    per += type_size(pr.is_list ? pr.count_type : pr.type);
            }
            if (per == 0)
                continue;  // an element without properties takes no bytes
            if (el.count > left) {
                need = UINT64_MAX;
                break;
            }
            need += el.count * per;  // <= left * 8 * props: no overflow
            if (need > left + 1)
                break;
        }
        if (need > left + (m_encoding == Encoding::Ascii ? 1 : 0)) {
            std::string what = "header promises";
            for (std::size_t i = 0; i < m_elements.size(); ++i)
                what += (i ? ", " : " ") + std::to_string(m_elements[i].count) + " " + m_elements[i].name;
            what += " but only " + std::to_string(left) + " bytes follow the header";
            if (m_encoding == Encoding::Ascii)
                parse_error_line(m_name, m_line, what);
            parse_error_byte(m_name, static_cast<std::uint64_t>(body - m_begin), what);
        }
    }

    // ---- shared -----------------------------------------------------------

    void add_vertex(const double* v, std::uint64_t where, bool binary)
    {
        Vec3f p{static_cast<float>(v[kX]), static_cast<float>(v[kY]), static_cast<float>(v[kZ])};
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
            const std::string what = "vertex " + std::to_string(m_soup.positions.size()) +
                                     " has a NaN or infinite (or out of float range) coordinate";
            if (binary)
                invalid_byte(m_name, where, what);
            invalid_line(m_name, where, what);
        }
        m_soup.positions.push_back(p);
        if (m_has_colors) {
            const Element& el = m_elements[m_vertex_element];
            Color3         c{};
            for (int k = 0; k < 3; ++k) {
                const Type t = el.props[m_role[kR + k]].type;
                c[k] = is_float_type(t) ? unit_to_byte(static_cast<float>(v[kR + k]))
                                        : clamp_to_byte(v[kR + k]);
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

    std::uint32_t check_index(std::int64_t v, std::uint64_t where, bool binary)
    {
        if (v < 0 || static_cast<std::uint64_t>(v) >= m_nv) {
            const std::string what = "vertex index " + std::to_string(v) + " in face " +
                                     std::to_string(m_face_index) + " out of range (the file has " +
                                     std::to_string(m_nv) + " vertices)";
            if (binary)
                invalid_byte(m_name, where, what);
            invalid_line(m_name, where, what);
        }
        return static_cast<std::uint32_t>(v);
    }

    // ---- ascii body ---------------------------------------------------------

    const char* token(const char* p)
    {
        for (;;) {
            p = skip_blanks(p, m_end);
            if (p < m_end && *p == '\n') {
                ++m_line;
                ++p;
            } else {
                return p;
            }
        }
    }

    bool is_delim(const char* p) const { return p >= m_end || is_space(*p); }

    [[noreturn]] void ascii_expected(const char* p, const Element& el, std::uint64_t i,
                                     const std::string& what)
    {
        parse_error_line(m_name, m_line,
                         "expected " + what + " of " + el.name + " " + std::to_string(i) + " (of " +
                             std::to_string(el.count) + "), found " + describe(p, m_end));
    }

    // One ascii value of type t; integers must be written as integers.
    const char* ascii_value(const char* p, Type t, double& out, const Element& el,
                            std::uint64_t i, const std::string& prop)
    {
        p = token(p);
        const char* q;
        if (is_float_type(t)) {
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
            ascii_expected(p, el, i, std::string(is_float_type(t) ? "a number" : "an integer") +
                                         " for property '" + prop + "'");
        return q;
    }

    void ascii_body(const char* p)
    {
        for (std::size_t e = 0; e < m_elements.size(); ++e) {
            const Element& el      = m_elements[e];
            const bool     is_vert = static_cast<int>(e) == m_vertex_element;
            const bool     is_face = static_cast<int>(e) == m_face_element;
            if (el.props.empty())
                continue;  // takes no bytes, whatever its count
            for (std::uint64_t i = 0; i < el.count; ++i) {
                double        vals[kRoles] = {0, 0, 0, 0, 0, 0};
                std::uint64_t line         = 0;
                m_poly.clear();
                for (std::size_t k = 0; k < el.props.size(); ++k) {
                    const Property& pr = el.props[k];
                    if (!pr.is_list) {
                        double v = 0;
                        p        = ascii_value(p, pr.type, v, el, i, pr.name);
                        if (k == 0)
                            line = m_line;
                        if (is_vert)
                            for (int r = 0; r < kRoles; ++r)
                                if (m_role[r] == static_cast<int>(k))
                                    vals[r] = v;
                        continue;
                    }
                    double n = 0;
                    p        = ascii_value(p, pr.count_type, n, el, i, pr.name + " count");
                    if (k == 0)
                        line = m_line;
                    if (n < 0 || n > static_cast<double>(m_end - p) / 2 + 1)
                        parse_error_line(m_name, m_line,
                                         "list '" + pr.name + "' of " + el.name + " " +
                                             std::to_string(i) + " has an invalid length");
                    const bool keep = is_face && static_cast<int>(k) == m_face_list;
                    for (std::int64_t j = 0; j < static_cast<std::int64_t>(n); ++j) {
                        double v = 0;
                        p        = ascii_value(p, pr.type, v, el, i, pr.name);
                        if (keep)
                            m_poly.push_back(check_index(static_cast<std::int64_t>(v), m_line, false));
                    }
                }
                if (is_vert)
                    add_vertex(vals, line, false);
                if (is_face) {
                    add_face(line, false);
                    ++m_face_index;
                }
            }
        }
    }

    // ---- binary body --------------------------------------------------------

    [[noreturn]] void truncated(const char* p, const Element& el, std::uint64_t i)
    {
        parse_error_byte(m_name, static_cast<std::uint64_t>(p - m_begin),
                         "file ends inside " + el.name + " " + std::to_string(i) + " (of " +
                             std::to_string(el.count) + ")");
    }

    void binary_body(const char* p)
    {
        const bool swap = (m_encoding == Encoding::BinaryBE) == host_is_little_endian();
        for (std::size_t e = 0; e < m_elements.size(); ++e) {
            const Element& el      = m_elements[e];
            const bool     is_vert = static_cast<int>(e) == m_vertex_element;
            const bool     is_face = static_cast<int>(e) == m_face_element;
            if (el.props.empty())
                continue;  // takes no bytes, whatever its count
            for (std::uint64_t i = 0; i < el.count; ++i) {
                const char* start        = p;
                double      vals[kRoles] = {0, 0, 0, 0, 0, 0};
                m_poly.clear();
                for (std::size_t k = 0; k < el.props.size(); ++k) {
                    const Property& pr = el.props[k];
                    if (!pr.is_list) {
                        const std::size_t sz = type_size(pr.type);
                        if (static_cast<std::size_t>(m_end - p) < sz)
                            truncated(p, el, i);
                        if (is_vert)
                            for (int r = 0; r < kRoles; ++r)
                                if (m_role[r] == static_cast<int>(k))
                                    vals[r] = load_as_double(reinterpret_cast<const unsigned char*>(p),
                                                             pr.type, swap);
                        p += sz;
                        continue;
                    }
                    const std::size_t csz = type_size(pr.count_type);
                    if (static_cast<std::size_t>(m_end - p) < csz)
                        truncated(p, el, i);
                    const std::int64_t n =
                        load_as_int(reinterpret_cast<const unsigned char*>(p), pr.count_type, swap);
                    const char* count_at = p;
                    p += csz;
                    const std::size_t isz = type_size(pr.type);
                    if (n < 0)
                        parse_error_byte(m_name, static_cast<std::uint64_t>(count_at - m_begin),
                                         "negative list length " + std::to_string(n) + " in '" +
                                             pr.name + "' of " + el.name + " " + std::to_string(i));
                    if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(m_end - p) / isz)
                        truncated(p, el, i);
                    if (is_face && static_cast<int>(k) == m_face_list) {
                        for (std::int64_t j = 0; j < n; ++j, p += isz)
                            m_poly.push_back(check_index(
                                load_as_int(reinterpret_cast<const unsigned char*>(p), pr.type, swap),
                                static_cast<std::uint64_t>(p - m_begin), true));
                    } else {
                        p += static_cast<std::size_t>(n) * isz;
                    }
                }
                if (is_vert)
                    add_vertex(vals, static_cast<std::uint64_t>(start - m_begin), true);
                if (is_face) {
                    add_face(static_cast<std::uint64_t>(start - m_begin), true);
                    ++m_face_index;
                }
            }
        }
    }

    const char*          m_begin;
    const char*          m_end;
    const std::string&   m_name;
    std::uint64_t        m_line     = 1;
    Encoding             m_encoding = Encoding::Ascii;
    std::vector<Element> m_elements;

    int           m_vertex_element = -1;
    int           m_face_element   = -1;
    int           m_face_list      = -1;
    int           m_role[kRoles]   = {-1, -1, -1, -1, -1, -1};
    bool          m_has_colors     = false;
    std::uint64_t m_nv             = 0;
    std::uint64_t m_face_index     = 0;

    TriangleSoup               m_soup;
    std::vector<std::uint32_t> m_poly;
};

}  // namespace

TriangleSoup read_ply(std::string_view bytes, const std::string& name)
{
    return PlyParser(bytes, name).run();
}

}  // namespace rxmesh::io::detail
