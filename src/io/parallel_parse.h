// Internal helpers of the multi-threaded text readers: how many threads a
// file gets, where it may be cut, running the pieces and joining their
// results.
//
// The text readers split a file at line ends, parse the pieces on threads
// into partial soups, and join them in file order. A piece that meets
// anything unusual (an error, a relative OBJ index) makes the reader parse
// the whole file again serially, so errors and their line numbers are always
// the serial parser's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "parse_util.h"
#include "rxmesh/io/io.h"

namespace rxmesh::io::detail {

//! At most this many pieces, whatever the thread count.
constexpr unsigned kMaxPieces = 256;

//! Pieces `units` of work (bytes, records) are cut into: at most `threads`
//! (0 = every hardware thread, never more than kMaxPieces), never fewer than
//! `min_units` each, at least 1.
inline unsigned pieces_for(std::size_t units, unsigned threads, std::size_t min_units)
{
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::min(threads, kMaxPieces);
    const std::size_t by_size = units / std::max<std::size_t>(1, min_units);
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, by_size)));
}

//! Pieces a file of `bytes` bytes is read in: 1 (serially) for small files
//! or when options.threads == 1.
inline unsigned parse_pieces(std::size_t bytes, const ReadOptions& options)
{
    return pieces_for(bytes, options.threads, options.min_piece_bytes);
}

//! True when the line that ends at the '\n' at `nl` continues on the next
//! one: its last character before any '\r' is a backslash (OBJ).
inline bool line_continues(const char* begin, const char* nl)
{
    const char* q = nl;
    while (q > begin && q[-1] == '\r') --q;
    return q > begin && q[-1] == '\\';
}

//! Cuts [begin, end) into at most `pieces` consecutive ranges of about equal
//! size. Every cut is just after a '\n' whose line does not continue, so each
//! range starts a fresh line; ranges are never empty.
inline std::vector<std::string_view> split_at_lines(const char* begin, const char* end,
                                                    unsigned pieces)
{
    std::vector<std::string_view> out;
    const std::size_t             size = static_cast<std::size_t>(end - begin);
    const char*                   from = begin;
    for (unsigned i = 1; i < pieces && from < end; ++i) {
        const char* cut = begin + size / pieces * i;
        if (cut < from) cut = from;
        for (;;) {
            const void* nl = std::memchr(cut, '\n', static_cast<std::size_t>(end - cut));
            if (nl == nullptr) {
                cut = end;
                break;
            }
            cut = static_cast<const char*>(nl) + 1;
            if (!line_continues(begin, cut - 1)) break;
        }
        if (cut >= end) break;
        out.emplace_back(from, static_cast<std::size_t>(cut - from));
        from = cut;
    }
    if (from < end || out.empty()) out.emplace_back(from, static_cast<std::size_t>(end - from));
    return out;
}

//! Runs f(i) for every i < n, each on its own thread (the caller's thread
//! takes i = 0, and any piece no thread could be started for). Rethrows the
//! exception of the lowest i that threw, after every thread has finished.
template <typename F>
void run_pieces(unsigned n, F&& f)
{
    std::vector<std::exception_ptr> errors(n);
    const auto                      guarded = [&](unsigned i) {
        try {
            f(i);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(n > 0 ? n - 1 : 0);
    for (unsigned i = 1; i < n; ++i) {
        try {
            threads.emplace_back(guarded, i);
        } catch (const std::system_error&) {
            guarded(i);  // no thread to be had: this one takes the piece
        }
    }
    if (n > 0) guarded(0);
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

//! The pieces' vectors joined in order, copied on `parts.size()` threads;
//! each part is freed once copied.
template <typename T>
std::vector<T> join_pieces(std::vector<std::vector<T>>& parts)
{
    std::vector<std::size_t> offset(parts.size() + 1, 0);
    for (std::size_t i = 0; i < parts.size(); ++i) offset[i + 1] = offset[i] + parts[i].size();
    std::vector<T> out(offset.back());
    run_pieces(static_cast<unsigned>(parts.size()), [&](unsigned i) {
        std::copy(parts[i].begin(), parts[i].end(), out.begin() + offset[i]);
        std::vector<T>().swap(parts[i]);
    });
    return out;
}

//! The file read as threaded() when it is cut into more than one piece and
//! that succeeds; otherwise, and after any exception of a piece, as
//! serial(), whose messages and line numbers are then the reader's.
template <typename Threaded, typename Serial>
TriangleSoup threaded_or_serial(unsigned pieces, Threaded&& threaded, Serial&& serial)
{
    if (pieces > 1) {
        try {
            return threaded();
        } catch (...) {
            // serial() decides
        }
    }
    return serial();
}

//! first[i] = the records before piece i, first[n] = all records, where a
//! record is a line with something other than blanks (and, when `comment`
//! is not NUL, not starting with it). Counted on the pieces' threads.
inline std::vector<std::uint64_t> record_starts(const std::vector<std::string_view>& cuts,
                                                char comment = '\0')
{
    const unsigned             n = static_cast<unsigned>(cuts.size());
    std::vector<std::uint64_t> first(n + 1, 0);
    run_pieces(n, [&](unsigned i) {
        const char*   p = cuts[i].data();
        const char*   e = p + cuts[i].size();
        std::uint64_t k = 0;
        while (p < e) {
            p = skip_blanks(p, e);
            if (p < e && *p != '\n' && (comment == '\0' || *p != comment)) ++k;
            p = find_eol(p, e);
            if (p < e) ++p;
        }
        first[i + 1] = k;
    });
    for (unsigned i = 0; i < n; ++i) first[i + 1] += first[i];
    return first;
}

//! Thrown by a piece, or by the join, for what only the serial parse
//! handles; any exception of a piece means the same: parse the whole file
//! serially.
struct SerialOnly
{
};

//! The pieces' positions and faces joined in order (faces index the joined
//! positions as they are: the pieces read absolute indices), with their
//! dropped triangles counted.
inline TriangleSoup join_soups(std::vector<TriangleSoup>& parts)
{
    std::vector<std::vector<Vec3f>>    positions(parts.size());
    std::vector<std::vector<Triangle>> faces(parts.size());
    TriangleSoup                       soup;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        positions[i] = std::move(parts[i].positions);
        faces[i]     = std::move(parts[i].faces);
        soup.dropped_faces += parts[i].dropped_faces;
    }
    soup.positions = join_pieces(positions);
    soup.faces     = join_pieces(faces);
    return soup;
}

}  // namespace rxmesh::io::detail
