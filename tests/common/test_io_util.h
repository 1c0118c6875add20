// Helpers shared by the tests of the mesh readers and writers.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"
#include "test_data.h"

namespace rxmesh::test {

//! The serial reader's outcome: its soup, or its exception's type and
//! message.
struct ReadOutcome
{
    TriangleSoup soup;
    std::string  error;  // empty when the read succeeded
};

inline ReadOutcome read_outcome(std::string_view text, io::Format format, const std::string& name,
                                const io::ReadOptions& options)
{
    ReadOutcome out;
    try {
        out.soup = io::read_memory(text, format, name, options);
    } catch (const ParseError& e) {
        out.error = std::string("ParseError: ") + e.what();
    } catch (const InvalidInputError& e) {
        out.error = std::string("InvalidInputError: ") + e.what();
    } catch (const std::exception& e) {
        out.error = std::string("other: ") + e.what();
    }
    return out;
}

//! The threaded readers (OBJ, OFF, binary PLY), forced to cut `text` into
//! `pieces` pieces however small, give exactly the serial reader's soup or
//! its exception type and message.
inline void expect_pieces_match_serial(std::string_view text, io::Format format,
                                       const std::string& name, unsigned pieces)
{
    const ReadOutcome serial = read_outcome(text, format, name, io::ReadOptions{1});
    const ReadOutcome cut    = read_outcome(text, format, name, io::ReadOptions{pieces, 1});
    ASSERT_EQ(cut.error, serial.error) << name << " in " << pieces << " pieces";
    EXPECT_EQ(cut.soup.positions, serial.soup.positions) << name << " in " << pieces << " pieces";
    EXPECT_EQ(cut.soup.faces, serial.soup.faces) << name << " in " << pieces << " pieces";
    EXPECT_EQ(cut.soup.colors, serial.soup.colors) << name << " in " << pieces << " pieces";
    EXPECT_EQ(cut.soup.dropped_faces, serial.soup.dropped_faces) << name << " in " << pieces
                                                                 << " pieces";
}

//! Parses `text` serially. Every reader test goes through here, so each of
//! its inputs also checks the threaded readers against the serial one.
inline TriangleSoup parse(std::string_view text, io::Format format, const std::string& name)
{
    for (unsigned pieces : {2u, 3u, 7u, 64u}) expect_pieces_match_serial(text, format, name, pieces);
    return io::read_memory(text, format, name, io::ReadOptions{1});
}

//! Runs f and expects exception type E whose message contains every needle.
template <typename E, typename F>
void expect_error(F&& f, const std::vector<std::string>& needles)
{
    try {
        f();
        ADD_FAILURE() << "no exception thrown; expected one mentioning '"
                      << (needles.empty() ? std::string() : needles.front()) << "'";
    } catch (const E& e) {
        const std::string msg = e.what();
        for (const std::string& n : needles)
            EXPECT_NE(msg.find(n), std::string::npos)
                << "message \"" << msg << "\" does not contain \"" << n << "\"";
    } catch (const std::exception& e) {
        ADD_FAILURE() << "wrong exception type; message: " << e.what();
    }
}

//! Where a reader's message says an error is: "name:line:" (1-based).
inline std::string line_place(const std::string& name, std::uint64_t line)
{
    return name + ":" + std::to_string(line) + ":";
}

//! Where a binary reader's message says an error is: "name: byte N:" (0-based).
inline std::string byte_place(const std::string& name, std::uint64_t offset)
{
    return name + ": byte " + std::to_string(offset) + ":";
}

//! Expects a ParseError of `name` at `position` (a line or a byte offset, as
//! `where` says) whose message names it as `place` and contains `needle`.
template <typename F>
void expect_parse_error(F&& f, const std::string& name, ParseError::Where where,
                        std::uint64_t position, const std::string& place,
                        const std::string& needle)
{
    try {
        f();
        ADD_FAILURE() << "no exception thrown; expected a ParseError at " << place;
    } catch (const ParseError& e) {
        EXPECT_EQ(e.where(), where) << e.what();
        EXPECT_EQ(e.position(), position) << e.what();
        EXPECT_EQ(e.file(), name) << e.what();
        const std::string msg = e.what();
        EXPECT_NE(msg.find(place), std::string::npos) << msg;
        if (!needle.empty()) {
            EXPECT_NE(msg.find(needle), std::string::npos) << msg << " lacks " << needle;
        }
    } catch (const std::exception& e) {
        ADD_FAILURE() << "wrong exception type; message: " << e.what();
    }
}

//! Expects a ParseError at the given 1-based line of `name`.
template <typename F>
void expect_parse_error_line(F&& f, const std::string& name, std::uint64_t line,
                             const std::string& needle = "")
{
    expect_parse_error(std::forward<F>(f), name, ParseError::Where::Line, line,
                       line_place(name, line), needle);
}

//! Expects a ParseError at the given 0-based byte offset of `name`.
template <typename F>
void expect_parse_error_byte(F&& f, const std::string& name, std::uint64_t offset,
                             const std::string& needle = "")
{
    expect_parse_error(std::forward<F>(f), name, ParseError::Where::ByteOffset, offset,
                       byte_place(name, offset), needle);
}

//! The place, then the needle where there is one.
inline std::vector<std::string> place_and_needle(const std::string& place,
                                                 const std::string& needle)
{
    return needle.empty() ? std::vector<std::string>{place}
                          : std::vector<std::string>{place, needle};
}

//! Expects InvalidInputError (bad data in well-formed syntax) at a line.
template <typename F>
void expect_invalid_line(F&& f, const std::string& name, std::uint64_t line,
                         const std::string& needle = "")
{
    expect_error<InvalidInputError>(std::forward<F>(f),
                                    place_and_needle(line_place(name, line), needle));
}

//! Expects InvalidInputError at a byte offset of a binary file.
template <typename F>
void expect_invalid_byte(F&& f, const std::string& name, std::uint64_t offset,
                         const std::string& needle = "")
{
    expect_error<InvalidInputError>(std::forward<F>(f),
                                    place_and_needle(byte_place(name, offset), needle));
}

inline std::string write_tmp(const std::string& file, std::string_view bytes)
{
    const std::string path = tmp_dir() + "/" + file;
    std::ofstream     out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    EXPECT_TRUE(out.good()) << "cannot write " << path;
    return path;
}

inline std::string read_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::uint32_t float_bits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

//! Bit-exact comparison (so that -0 vs 0 and NaN payloads would show).
inline void expect_same_positions(const std::vector<Vec3f>& a, const std::vector<Vec3f>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        for (int k = 0; k < 3; ++k)
            ASSERT_EQ(float_bits(a[i][k]), float_bits(b[i][k]))
                << "vertex " << i << " component " << k << ": " << a[i][k] << " vs " << b[i][k];
}

//! Every index in range and every coordinate finite: the reader contract.
inline ::testing::AssertionResult soup_is_valid(const TriangleSoup& s)
{
    for (std::size_t f = 0; f < s.faces.size(); ++f)
        for (std::uint32_t v : s.faces[f])
            if (v >= s.positions.size())
                return ::testing::AssertionFailure()
                       << "face " << f << " index " << v << " >= " << s.positions.size();
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        for (float c : s.positions[i])
            if (!std::isfinite(c))
                return ::testing::AssertionFailure() << "vertex " << i << " not finite";
    if (!s.colors.empty() && s.colors.size() != s.positions.size())
        return ::testing::AssertionFailure() << "colors size " << s.colors.size();
    if (s.faces.empty())
        return ::testing::AssertionFailure() << "a successful read returned no faces";
    return ::testing::AssertionSuccess();
}

//! Faces as triples of positions: compares meshes across formats whatever
//! their vertex numbering.
using PosTriangle = std::array<Vec3f, 3>;
inline std::vector<PosTriangle> position_triangles(const TriangleSoup& s)
{
    std::vector<PosTriangle> out;
    for (const Triangle& t : s.faces)
        out.push_back({s.positions[t[0]], s.positions[t[1]], s.positions[t[2]]});
    return out;
}

}  // namespace rxmesh::test
