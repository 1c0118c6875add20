// Internal to the PLY reader: the parsed header that ply_header.cpp produces
// and ply_read.cpp walks the body with.
//
// The header declares elements and their properties in file order; the body
// is read element by element in that order. Only `vertex` (x, y, z and
// optional red/green/blue) and `face` (the vertex_indices / vertex_index
// list) are kept; every other element and property is parsed past, which in
// binary files means computing its byte size from its declared types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parse_util.h"

namespace rxmesh::io::detail {

enum class PlyType : std::uint8_t
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

inline std::size_t ply_type_size(PlyType t)
{
    switch (t) {
        case PlyType::I8:
        case PlyType::U8: return 1;
        case PlyType::I16:
        case PlyType::U16: return 2;
        case PlyType::I32:
        case PlyType::U32:
        case PlyType::F32: return 4;
        case PlyType::F64: return 8;
    }
    return 0;
}

inline bool ply_is_float(PlyType t) { return t == PlyType::F32 || t == PlyType::F64; }

struct PlyProperty
{
    std::string name;
    PlyType     type       = PlyType::F32;  // item type for lists
    bool        is_list    = false;
    PlyType     count_type = PlyType::U8;
};

struct PlyElement
{
    std::string              name;
    std::uint64_t            count = 0;
    std::vector<PlyProperty> props;
    std::uint64_t            line  = 0;  // header line, for messages
};

enum class PlyEncoding
{
    Ascii,
    BinaryLE,
    BinaryBE
};

// Roles of vertex properties that the reader keeps.
enum PlyRole : int
{
    kRoleX,
    kRoleY,
    kRoleZ,
    kRoleR,
    kRoleG,
    kRoleB,
    kRoles
};

//! A checked header: the elements, where the vertex and face data sit among
//! them, and where the body starts.
struct PlyHeader
{
    PlyEncoding             encoding = PlyEncoding::Ascii;
    std::vector<PlyElement> elements;

    int           vertex_element = -1;
    int           face_element   = -1;
    int           face_list      = -1;  // property index of the face's index list
    int           role[kRoles]   = {-1, -1, -1, -1, -1, -1};  // property index or -1
    bool          has_colors     = false;
    std::uint64_t nv             = 0;  // vertex count

    const char*   body      = nullptr;  // first byte after the end_header line
    std::uint64_t body_line = 1;        // the line the body starts on
};

//! Parses and checks the header of the PLY file in `bytes`, including that
//! the promised element counts fit into the bytes after it. Throws
//! ParseError / InvalidInputError.
PlyHeader parse_ply_header(std::string_view bytes, const std::string& name);

}  // namespace rxmesh::io::detail
