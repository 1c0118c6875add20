// The apps' JSON reports: an object built key by key.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "rxmesh/core/error.h"

namespace rxmesh::app {

//! A JSON object (values: numbers, strings, booleans, nested objects, or
//! JSON text from elsewhere), written in insertion order.
class Json
{
   public:
    Json& num(const std::string& key, double v)
    {
        return raw(key, std::isfinite(v) ? format(v) : std::string("null"));
    }
    Json&       str(const std::string& key, const std::string& v) { return raw(key, quote(v)); }
    Json&       flag(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
    Json&       obj(const std::string& key, const Json& v) { return raw(key, v.text()); }
    std::string text() const { return "{" + m_body + "}"; }
    //! Appends `other`'s keys, in their order.
    Json& append(const Json& other)
    {
        if (!other.m_body.empty()) m_body += (m_body.empty() ? "" : ", ") + other.m_body;
        return *this;
    }

    //! A value that is JSON text already: a library report's to_json().
    Json& embed(const std::string& key, const std::string& json_text)
    {
        return raw(key, json_text);
    }

    //! Writes the object to `path` (through Outputs::stage for atomicity).
    void write(const std::string& path) const
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) throw IOError("cannot write " + path);
        const std::string t  = text() + "\n";
        const bool        ok = std::fwrite(t.data(), 1, t.size(), f) == t.size();
        if (std::fclose(f) != 0 || !ok) throw IOError("cannot write " + path);
    }

   private:
    Json& raw(const std::string& key, const std::string& value)
    {
        m_body += (m_body.empty() ? "" : ", ") + quote(key) + ": " + value;
        return *this;
    }
    static std::string format(double v)
    {
        std::ostringstream s;
        s.precision(9);
        s << v;
        return s.str();
    }
    static std::string quote(const std::string& s)
    {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') out += '\\';
            if (static_cast<unsigned char>(c) >= 0x20) out += c;
        }
        return out + "\"";
    }
    std::string m_body;
};

}  // namespace rxmesh::app
