// The frame of a benchmark driver's main(): an error
// becomes one line on stderr and exit status 1, and the rows become one JSON
// document, so that every driver reports failures and writes --json alike.
#pragma once

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench_util.h"

namespace rxmesh::bench {

//! Returns body()'s exit status; an exception escaping it is printed as
//! "name: what" on stderr and gives 1.
template <typename Body>
int guarded_main(const char* name, Body&& body)
{
    try {
        return body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 1;
    }
}

//! Writes `head` (the document's opening, up to and with "\"rows\":[") and
//! row_json of every row to `path`, unless the path is empty; returns
//! whether verified(row) holds for every row.
template <typename Row, typename RowJson, typename Verified>
bool write_rows_json(const std::string& path, std::string head, const std::vector<Row>& rows,
                     RowJson&& row_json, Verified&& verified)
{
    bool all = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        head += (i ? "," : "") + row_json(rows[i]);
        all = all && verified(rows[i]);
    }
    if (!path.empty()) write_text_file(path, head + "]}\n");
    return all;
}

}  // namespace rxmesh::bench
