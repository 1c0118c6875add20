// Stanford PLY header: the magic word, format line, elements and properties,
// and the checks that run before the body is read (see ply_format.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ply_format.h"

namespace rxmesh::io::detail {
namespace {

bool type_from_name(std::string_view s, PlyType& t)
{
    struct Entry
    {
        const char* name;
        PlyType     type;
    };
    static const Entry table[] = {
        {"char", PlyType::I8},    {"int8", PlyType::I8},     {"uchar", PlyType::U8},
        {"uint8", PlyType::U8},   {"short", PlyType::I16},   {"int16", PlyType::I16},
        {"ushort", PlyType::U16}, {"uint16", PlyType::U16},  {"int", PlyType::I32},
        {"int32", PlyType::I32},  {"uint", PlyType::U32},    {"uint32", PlyType::U32},
        {"float", PlyType::F32},  {"float32", PlyType::F32}, {"double", PlyType::F64},
        {"float64", PlyType::F64}};
    for (const auto& e : table)
        if (s == e.name) {
            t = e.type;
            return true;
        }
    return false;
}

std::vector<std::string_view> split(const char* p, const char* e)
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

class PlyHeaderParser : TextParser
{
   public:
    using TextParser::TextParser;

    PlyHeader run()
    {
        m_h.body      = header();
        m_h.body_line = m_line;
        check_sizes(m_h.body);
        return std::move(m_h);
    }

   private:
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
                format(tok);
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

    void format(const std::vector<std::string_view>& tok)
    {
        if (tok.size() != 3)
            parse_error_line(m_name, m_line, "expected 'format <encoding> 1.0'");
        if (tok[1] == "ascii")
            m_h.encoding = PlyEncoding::Ascii;
        else if (tok[1] == "binary_little_endian")
            m_h.encoding = PlyEncoding::BinaryLE;
        else if (tok[1] == "binary_big_endian")
            m_h.encoding = PlyEncoding::BinaryBE;
        else
            parse_error_line(m_name, m_line,
                             "unknown format '" + std::string(tok[1]) +
                                 "' (expected ascii, binary_little_endian or binary_big_endian)");
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
        PlyElement el;
        el.name  = std::string(tok[1]);
        el.count = static_cast<std::uint64_t>(count);
        el.line  = m_line;
        m_h.elements.push_back(std::move(el));
    }

    void property(const std::vector<std::string_view>& tok)
    {
        if (m_h.elements.empty())
            parse_error_line(m_name, m_line, "property before any element");
        PlyProperty prop;
        if (tok.size() == 5 && tok[1] == "list") {
            prop.is_list = true;
            if (!type_from_name(tok[2], prop.count_type) || !type_from_name(tok[3], prop.type))
                parse_error_line(m_name, m_line,
                                 "unknown type in '" + std::string(tok[2]) + " " + std::string(tok[3]) +
                                     "' (expected char, uchar, short, ushort, int, uint, float, double or int8..float64)");
            if (ply_is_float(prop.count_type))
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
        m_h.elements.back().props.push_back(std::move(prop));
    }

    // Finds the vertex and face elements and the properties the reader uses.
    void finish_header()
    {
        for (std::size_t e = 0; e < m_h.elements.size(); ++e) {
            const PlyElement& el = m_h.elements[e];
            if (el.name == "vertex") {
                if (m_h.vertex_element >= 0)
                    parse_error_line(m_name, el.line, "second 'vertex' element");
                m_h.vertex_element = static_cast<int>(e);
                vertex_roles(el);
            } else if (el.name == "face") {
                if (m_h.face_element >= 0)
                    parse_error_line(m_name, el.line, "second 'face' element");
                m_h.face_element = static_cast<int>(e);
                face_list(el);
            }
        }
        m_h.nv = m_h.vertex_element >= 0 ? m_h.elements[m_h.vertex_element].count : 0;
        if (m_h.nv >= UINT32_MAX)
            invalid_line(m_name, m_h.elements[m_h.vertex_element].line, "more than 2^32-1 vertices");
    }

    void vertex_roles(const PlyElement& el)
    {
        int* role = m_h.role;
        for (int r = 0; r < kRoles; ++r)
            role[r] = -1;
        static const char* xyz[] = {"x", "y", "z"};
        for (std::size_t i = 0; i < el.props.size(); ++i) {
            const PlyProperty& pr = el.props[i];
            for (int r = 0; r < 3; ++r)
                if (pr.name == xyz[r])
                    role[r] = static_cast<int>(i);
            if (pr.name == "red" || pr.name == "diffuse_red")
                role[kRoleR] = static_cast<int>(i);
            if (pr.name == "green" || pr.name == "diffuse_green")
                role[kRoleG] = static_cast<int>(i);
            if (pr.name == "blue" || pr.name == "diffuse_blue")
                role[kRoleB] = static_cast<int>(i);
        }
        for (int r = 0; r < kRoles; ++r)
            if (role[r] >= 0 && el.props[role[r]].is_list) {
                if (r < 3)
                    parse_error_line(m_name, el.line,
                                     "vertex property '" + el.props[role[r]].name +
                                         "' is a list (expected a scalar)");
                role[r] = -1;
            }
        if (role[kRoleX] < 0 || role[kRoleY] < 0 || role[kRoleZ] < 0)
            parse_error_line(m_name, el.line, "vertex element lacks an x, y or z property");
        m_h.has_colors = role[kRoleR] >= 0 && role[kRoleG] >= 0 && role[kRoleB] >= 0;
    }

    void face_list(const PlyElement& el)
    {
        for (std::size_t i = 0; i < el.props.size(); ++i)
            if (el.props[i].is_list &&
                (el.props[i].name == "vertex_indices" || el.props[i].name == "vertex_index"))
                m_h.face_list = static_cast<int>(i);
        if (m_h.face_list < 0 && el.count > 0)
            parse_error_line(m_name, el.line,
                             "face element lacks a 'vertex_indices' (or 'vertex_index') list property");
        if (m_h.face_list >= 0 && ply_is_float(el.props[m_h.face_list].type))
            parse_error_line(m_name, el.line, "face vertex indices must have an integer type");
    }

    // Before reserving anything: every element instance needs at least its
    // scalar bytes (binary) or two bytes per value (ascii: a digit and a
    // separator), so counts beyond what the body can hold are refused.
    void check_sizes(const char* body)
    {
        const bool          ascii = m_h.encoding == PlyEncoding::Ascii;
        const std::uint64_t left  = static_cast<std::uint64_t>(m_end - body);
        std::uint64_t       need  = 0;
        for (const PlyElement& el : m_h.elements) {
            std::uint64_t per = 0;
            for (const PlyProperty& pr : el.props) {
                if (ascii)
                    per += 2;
                else
                    per += ply_type_size(pr.is_list ? pr.count_type : pr.type);
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
        if (need > left + (ascii ? 1 : 0)) {
            std::string what = "header promises";
            for (std::size_t i = 0; i < m_h.elements.size(); ++i)
                what += (i ? ", " : " ") + std::to_string(m_h.elements[i].count) + " " +
                        m_h.elements[i].name;
            what += " but only " + std::to_string(left) + " bytes follow the header";
            if (ascii)
                parse_error_line(m_name, m_line, what);
            parse_error_byte(m_name, static_cast<std::uint64_t>(body - m_begin), what);
        }
    }

    PlyHeader m_h;
};

}  // namespace

PlyHeader parse_ply_header(std::string_view bytes, const std::string& name)
{
    return PlyHeaderParser(bytes, name).run();
}

}  // namespace rxmesh::io::detail
