#!/usr/bin/env python3
"""Documentation check for RXMesh (run by CI before the build; standard library only).

Every repository path and every C++ name that README.md, ARCHITECTURE.md and
benchmarks/results/*/README.md name must exist, so that the documents cannot
drift from the code unnoticed:

- paths: in backticks (`include/rxmesh/query/launch.cuh`; `rxmesh/...` and
  `solver/cg.cuh` relative to include/ and include/rxmesh/; `apps/<name>` with a
  placeholder matches any one entry; `src/facade/kring_halo*.cu` is a glob; a
  bare file name like `cg.cuh` must exist somewhere in the tree), in fenced
  code blocks (the same, beginning with a top-level folder, and the
  #include "..." lines), and the targets of relative Markdown links;
- names: every qualified name (`RXMesh::for_each`, `rxmesh::launch`,
  `Op::FV`) in backticks or fenced code, each part declared as a namespace,
  class, enum or member inside the part before it; and a whole backticked
  span that is plainly one C++ name: a CamelCase type (`PatchQuery<Op>`), a
  template (`accumulate_sum<Op::EV>`), a snake_case call
  (`for_each_kring_while(accept, max_rings, f)`) or an RXMESH_ macro (or a
  CMake option or cache variable of a CMakeLists.txt or *.cmake file); in a
  plain fenced block (a diagram or a listing, no language), every template
  and snake_case call (`import_mesh()`), where in a code example they may be
  the example's own. Declarations are found in include/, src/ and apps/ by
  simple patterns (comments and strings removed): this is a net for stale
  names, not a C++ parser;
- completeness: the layout map (docs/layout.md; README.md in a tree without
  one) names every app folder and every header of include/rxmesh/algo/
  (REQUIRED_MENTIONS), so that a new one is listed.

A few spans are deliberately not this library's code (the paper's
`kernel<Op>`, CMake's `rxmesh::rxmesh`): ALLOWED lists them, each with the
reason and, where it applies, the sections it may appear in.

    python3 scripts/check_docs.py [--root DIR] [FILE.md ...]

Prints one line per broken reference (`path:line: message`) and exits 1, or
prints a one-line summary and exits 0 when every reference resolves.
"""

import argparse
import bisect
import glob
import os
import re
import sys

DEFAULT_DOCS = ("README.md", "ARCHITECTURE.md", "docs/concepts.md", "docs/guide.md", "docs/layout.md",
                "benchmarks/results/*/README.md")

# Spans that name no code of this repository on purpose:
# name -> (why, regular expression the enclosing section's heading must match, or None)
ALLOWED = {
    "kernel": ("the RXMesh paper's launch form (rxmesh.template kernel<Op>), compared with ours",
               r"(?i)paper"),
    "Iterator": ("the RXMesh paper's row type, compared with RowView", r"(?i)paper"),
    "rxmesh::rxmesh": ("the CMake target", None),
    "add_subdirectory": ("a CMake command", None),
    "ValueError": ("Python's built-in exception, what the Python package raises", None),
    "OSError": ("Python's built-in exception, what the Python package raises", None),
    "TypeError": ("Python's built-in exception, what the Python package raises", None),
    "RuntimeError": ("Python's built-in exception, what the Python package raises", None),
}

# What a document must name, so that a new app or algorithm cannot go unlisted:
# (document, glob of repository paths, what they are, a regular expression that
# names one, {name} its base name)
# The document is the repository's layout map: docs/layout.md, or README.md
# in a tree without one.
LAYOUT_DOCS = ("docs/layout.md", "README.md")
REQUIRED_MENTIONS = (
    (LAYOUT_DOCS, "apps/*/", "app folder", r"apps/{name}(?![\w-])|(?<![\w./-]){name}/"),
    (LAYOUT_DOCS, "include/rxmesh/algo/*", "algorithm header", r"(?<![\w.-]){name}(?!\w)"),
)

# Qualified names from outside the repository: not checked.
EXTERNAL_SCOPES = {"std", "cub", "thrust", "cuda", "CLI", "Eigen", "OpenMesh", "CGAL", "OpenSubdiv",
                   "testing", "nvcuda", "cooperative_groups", "cg"}

TOP_DIRS = (".ci", "apps", "benchmarks", "cmake", "docs", "examples", "include", "python", "scripts", "src",
            "tests")
TOP_FILES = ("README.md", "ARCHITECTURE.md", "CMakeLists.txt", "LICENSE", ".clang-format",
             ".gitignore")
# include/rxmesh/<dir>/: `solver/cg.cuh` means include/rxmesh/solver/cg.cuh
LIB_DIRS = ("core", "io", "build", "patch", "query", "attribute", "algo", "reference")
CODE_DIRS = ("include", "src", "apps")
SOURCE_EXTS = (".h", ".hh", ".hpp", ".cuh", ".cu", ".c", ".cc", ".cpp", ".inl")
# a bare file name with one of these endings must exist somewhere in the tree
NAMED_FILE_EXTS = SOURCE_EXTS + (".py", ".sh", ".cmake")

KEYWORDS = {
    "return", "else", "new", "delete", "throw", "case", "goto", "sizeof", "alignof", "typeid",
    "co_return", "co_yield", "co_await", "if", "for", "while", "switch", "catch", "do",
    "static_assert", "decltype", "using", "namespace", "typename", "template", "operator",
    "default", "public", "private", "protected", "enum", "class", "struct", "union",
}

IDENT = r"[A-Za-z_]\w*"
TEMPLATE_ARGS = r"<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*>"  # three levels deep
CHAIN_RE = re.compile(r"(?<![\w:.>])(%s(?:%s)?(?:::%s(?:%s)?)+)" % (IDENT, TEMPLATE_ARGS, IDENT,
                                                                  TEMPLATE_ARGS))
WHOLE_NAME_RE = re.compile(r"^(%s)(%s)?(\(.*\)|\{.*\})?$" % (IDENT, TEMPLATE_ARGS), re.S)
CAMEL_RE = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")
MACRO_RE = re.compile(r"^RXMESH_[A-Z0-9_]+$")
# in a plain fenced block, a template or a call not reached through an object or a
# scope: kernel<Op>, import_mesh()
PLAIN_NAME_RE = re.compile(r"(?<![\w.:>-])(%s)(?:(%s)|\()" % (IDENT, TEMPLATE_ARGS))
CASTS = {"static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "bit_cast"}

FENCE_RE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
CODE_SPAN_RE = re.compile(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
LINK_RE = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING_RE = re.compile(r"^#{1,6}\s+(.*)$")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# a file name alone in a plain fenced block (a listing): cg.cuh
BARE_FILE_RE = re.compile(r"(?<![\w./<>*-])([\w*-]+\.(?:%s))(?![\w./])"
                          % "|".join(e[1:] for e in NAMED_FILE_EXTS))
# a path inside fenced code: begins with a top-level folder or rxmesh/ or a library folder
FENCED_PATH_RE = re.compile(r"(?<![\w./<>-])((?:%s|rxmesh|%s)/[\w.*<>/+-]*)"
                            % ("|".join(re.escape(d) for d in TOP_DIRS), "|".join(LIB_DIRS)))


# ----------------------------------------------------------------------------
# the code's declarations


def strip_code(text):
    """text with comments and string/char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and nxt == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum() and nxt.isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def decl_prefix_ok(prefix):
    """Whether `prefix` (the text before a name on its line) ends like a type:
    the name is then declared, not called or assigned."""
    p = prefix.rstrip()
    p = re.sub(r"(?:%s(?:%s)?::)+$" % (IDENT, TEMPLATE_ARGS), "", p).rstrip()  # Class::name
    p = p.rstrip("*&").rstrip()
    if not p or not (p[-1].isalnum() or p[-1] in "_>"):
        return False
    m = re.search(r"(%s)$" % IDENT, p)
    return not (m and m.group(1) in KEYWORDS)


class CodeIndex:
    """Where each name is declared in include/, src/ and apps/ (see the module doc)."""

    def __init__(self, root=None):
        self.types = {}         # class/struct/union (defined), enum, alias -> files
        self.forward = set()    # class names only forward-declared somewhere
        self.enums = {}         # enum name -> enumerators
        self.namespaces = {}    # namespace -> files
        self.functions = {}     # function name -> files
        self.variables = {}     # variable or data member name -> files
        self.macros = set()     # RXMESH_ macros, and CMake options and cache variables
        self.qualified = set()  # (scope, name) pairs written as scope::name in code
        for rel in code_files(root) if root else ():
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                self.add_file(rel, fh.read())
        for rel in cmake_files(root) if root else ():
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                self.add_cmake(fh.read())

    def add_cmake(self, text):
        """CMake options and cache variables (what `-DRXMESH_...=` sets), and
        the scope::name of alias targets (`add_library(rxmesh::mesh ALIAS ...)`)."""
        for m in re.finditer(r"^\s*add_library\s*\(\s*(%s)::(%s)\s+ALIAS\b" % (IDENT, IDENT),
                             text, re.M | re.I):
            self.qualified.add((m.group(1), m.group(2)))
        for m in re.finditer(r"^\s*option\s*\(\s*(%s)" % IDENT, text, re.M | re.I):
            self.macros.add(m.group(1))
        for m in re.finditer(r"^\s*set\s*\(\s*(%s)\b[^)]*\bCACHE\b" % IDENT, text, re.M | re.I):
            self.macros.add(m.group(1))

    def add_file(self, rel, text):
        for m in re.finditer(r"^\s*#\s*define\s+(%s)" % IDENT, text, re.M):
            self.macros.add(m.group(1))
        code = strip_code(text)
        for m in re.finditer(r"\bnamespace\s+([\w:]+)\s*\{", code):
            for part in m.group(1).split("::"):
                self.namespaces.setdefault(part, set()).add(rel)
        for m in re.finditer(r"\benum\s+(?:class\s+|struct\s+)?(%s)\s*(?::[^{;]*)?\{([^}]*)\}"
                             % IDENT, code):
            self.types.setdefault(m.group(1), set()).add(rel)
            names = (re.match(r"\s*(%s)" % IDENT, e) for e in m.group(2).split(","))
            self.enums.setdefault(m.group(1), set()).update(x.group(1) for x in names if x)
        for m in re.finditer(r"(?<![\w])(class|struct|union)\s+(?:alignas\s*\([^)]*\)\s*)?(%s)\s*"
                             r"(\S)" % IDENT, code):
            before = code[max(0, m.start() - 12):m.start()]
            if re.search(r"\benum\s*$", before) or m.group(3) in ">,=)":
                continue  # enum class, or a template parameter
            if m.group(3) == ";":
                self.forward.add(m.group(2))
            else:
                self.types.setdefault(m.group(2), set()).add(rel)
        for m in re.finditer(r"\busing\s+(%s)\s*=|\btypedef\b[^;]*?\b(%s)\s*;" % (IDENT, IDENT),
                             code):
            self.types.setdefault(m.group(1) or m.group(2), set()).add(rel)
        for line in code.splitlines():
            self.add_line_members(rel, line)
        flat = code
        for _ in range(3):  # drop template arguments: A<T>::b is a use of A::b
            flat = re.sub(r"<[^<>;{}()]*>", "", flat)
        for m in re.finditer(r"(?=\b(%s)\s*::\s*(%s))" % (IDENT, IDENT), flat):
            self.qualified.add((m.group(1), m.group(2)))

    def add_line_members(self, rel, line):
        """Functions (`type name(`) and variables (`type name =|;|{|[`) declared on a line."""
        first = None
        for m in re.finditer(r"(%s)\s*(\(|=(?!=)|;|\{|\[)" % IDENT, line):
            if m.group(1) in KEYWORDS or not decl_prefix_ok(line[:m.start()]):
                continue
            table = self.functions if m.group(2) == "(" else self.variables
            table.setdefault(m.group(1), set()).add(rel)
            if first is None and m.group(2) != "(":
                first = m.end()
        if first is not None:  # int a = 0, b = 1;
            for m in re.finditer(r",\s*(%s)\s*(?==|,|;|\{|\[)" % IDENT, line[first:]):
                self.variables.setdefault(m.group(1), set()).add(rel)

    def is_scope(self, name):
        return name in self.namespaces or name in self.types

    def type_or_function(self, name):
        """Whether an unqualified name is declared as a class, enum, alias or function."""
        return name in self.types or name in self.forward or name in self.functions

    def member_of(self, scope, name):
        if (scope, name) in self.qualified:
            return True
        if name in self.enums.get(scope, ()):
            return True
        files = self.namespaces.get(scope, set()) | self.types.get(scope, set())
        for table in (self.types, self.functions, self.variables, self.namespaces):
            if files & table.get(name, set()):
                return True
        return False

    def check_chain(self, chain):
        """None when every part of a::b::c resolves, else why not."""
        parts = [re.sub(TEMPLATE_ARGS, "", p).strip() for p in split_chain(chain)]
        if parts[0] in EXTERNAL_SCOPES:
            return None
        if not self.is_scope(parts[0]):
            return ("`%s` is no namespace, class or enum declared in include/, src/ or apps/"
                    % parts[0])
        for scope, name in zip(parts, parts[1:]):
            if not self.member_of(scope, name):
                return "`%s` is not declared in `%s`" % (name, scope)
        return None


def split_chain(chain):
    """'A<x::y>::b' -> ['A<x::y>', 'b'] (splits only at depth 0)."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(chain):
        c = chain[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if depth == 0 and chain.startswith("::", i):
            parts.append(cur)
            cur, i = "", i + 2
            continue
        cur += c
        i += 1
    parts.append(cur)
    return parts


def code_files(root):
    for top in CODE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXTS):
                    yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def cmake_files(root):
    """CMakeLists.txt and *.cmake files of the tree (build outputs and hidden folders excluded)."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "build")))
        for f in sorted(filenames):
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def file_names(root):
    """Base names of the files in the tree's top-level folders (build outputs excluded)."""
    names = set()
    for top in TOP_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            names.update(filenames)
    return names


# ----------------------------------------------------------------------------
# the documents


class Doc:
    """A Markdown file split into prose (fenced blocks blanked) and fenced blocks."""

    def __init__(self, rel, text):
        self.rel = rel
        self.lines = text.splitlines()
        self.fenced = []  # (first line number, language, lines)
        prose, block, lang, start = [], None, "", 0
        for i, line in enumerate(self.lines, 1):
            m = FENCE_RE.match(line)
            if block is None and m:
                block, lang, start = [], m.group(2), i + 1
                prose.append("")
            elif block is not None and line.strip().startswith(("```", "~~~")):
                self.fenced.append((start, lang, block))
                block = None
                prose.append("")
            elif block is not None:
                block.append(line)
                prose.append("")
            else:
                prose.append(line)
        self.prose = "\n".join(prose)
        self.line_starts = [0]
        for line in prose:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.headings = [(i, m.group(1).strip()) for i, line in enumerate(prose, 1)
                         for m in [HEADING_RE.match(line)] if m]

    def line_of(self, offset):
        return bisect.bisect_right(self.line_starts, offset)

    def heading_at(self, line):
        title = ""
        for i, t in self.headings:
            if i > line:
                break
            title = t
        return title


def allowed(name, heading):
    entry = ALLOWED.get(name)
    return entry is not None and (entry[1] is None or re.search(entry[1], heading) is not None)


class Checker:
    def __init__(self, root):
        self.root = root
        self.index = CodeIndex(root)
        self.names = file_names(root)
        self.problems = []  # (doc, line, message)
        self.references = 0

    def report(self, doc, line, message):
        self.problems.append((doc.rel, line, message))

    # ---- paths

    def path_exists(self, rel, base="."):
        """Whether a repository path exists; `<placeholder>` and `*` match any one name."""
        pattern = re.sub(r"<[^<>/]*>", "*", rel)
        full = os.path.normpath(os.path.join(self.root, base, pattern))
        if os.path.commonpath([full, self.root]) != self.root:
            return False  # outside the repository
        if "*" in pattern or "?" in pattern:
            return bool(glob.glob(full + ("/" if pattern.endswith("/") else "")))
        return os.path.isdir(full) if pattern.endswith("/") else os.path.exists(full)

    def check_path_token(self, doc, line, token, bare=True):
        """Checks one token when it looks like a repository path (or, with
        `bare`, a file name like `cg.cuh`)."""
        token = token.strip("\"'()[],;:")
        if not token or "://" in token or token.startswith(("-", "$", "~", "/", "./")):
            return
        first = token.split("/", 1)[0]
        ext_or_dir = token.endswith("/") or os.path.splitext(token)[1] != ""
        if "/" in token and first in TOP_DIRS:
            where = token
        elif "/" in token and first == "rxmesh":
            where = "include/" + token
        elif "/" in token and first in LIB_DIRS and ext_or_dir:
            where = "include/rxmesh/" + token
        elif "/" not in token and bare and (token.endswith(NAMED_FILE_EXTS)
                                            or token in TOP_FILES):
            self.references += 1
            if token in TOP_FILES and self.path_exists(token):
                return
            if not any(re.fullmatch(glob_to_re(token), n) for n in self.names):
                self.report(doc, line, "no file named `%s` in the repository" % token)
            return
        else:
            return
        self.references += 1
        if not self.path_exists(where):
            self.report(doc, line, "no such path: `%s`%s"
                        % (token, "" if where == token else " (%s)" % where))

    # ---- names

    def check_chain(self, doc, line, chain, heading):
        if allowed(chain, heading):
            return
        self.references += 1
        why = self.index.check_chain(chain)
        if why:
            self.report(doc, line, "unknown name `%s`: %s" % (chain, why))

    def check_whole_name(self, doc, line, span, heading):
        """A span that is one unqualified name: checked when plainly code."""
        m = WHOLE_NAME_RE.match(span)
        if not m:
            return
        name, targs, call = m.group(1), m.group(2), m.group(3)
        if MACRO_RE.match(name) and not targs and not call:
            self.check_name(doc, line, span, name, heading, macro=True)
        elif CAMEL_RE.match(name) or targs or (call and call.startswith("(") and "_" in name):
            self.check_name(doc, line, span, name, heading)

    def check_name(self, doc, line, written, name, heading, macro=False):
        if allowed(name, heading) or name in CASTS:
            return
        self.references += 1
        if macro and name not in self.index.macros:
            self.report(doc, line, "unknown name `%s`: no macro `%s` is defined in include/, src/ "
                        "or apps/" % (written, name))  # (nor a CMake option of that name)
        elif not macro and not self.index.type_or_function(name):
            self.report(doc, line, "unknown name `%s`: no class, enum, alias or function `%s` is "
                        "declared in include/, src/ or apps/" % (written, name))

    # ---- a document

    def check_doc(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as fh:
            doc = Doc(rel, fh.read())
        for m in CODE_SPAN_RE.finditer(doc.prose):
            line = doc.line_of(m.start())
            span = " ".join(m.group(2).split())
            heading = doc.heading_at(line)
            for token in span.split():
                self.check_path_token(doc, line, token)
            for chain in chains(span):
                self.check_chain(doc, line, chain, heading)
            self.check_whole_name(doc, line, span, heading)
        for m in LINK_RE.finditer(doc.prose):
            target = m.group(1).split("#", 1)[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            self.references += 1
            if not self.path_exists(target, os.path.dirname(rel)):
                self.report(doc, doc.line_of(m.start()), "broken link target `%s`" % target)
        for start, lang, block in doc.fenced:
            for k, text in enumerate(block):
                self.check_fenced_line(doc, start + k, text, plain=lang in ("", "text"))
        self.check_mentions(doc)

    def check_mentions(self, doc):
        """REQUIRED_MENTIONS: reported at the Layout heading (or line 1)."""
        text = "\n".join(doc.lines)
        line = next((i for i, t in doc.headings if t.lower() == "layout"), 1)
        for docs, pattern, what, form in REQUIRED_MENTIONS:
            rel = next((d for d in docs if os.path.exists(os.path.join(self.root, d))), None)
            if rel != doc.rel:
                continue
            for full in sorted(glob.glob(os.path.join(self.root, pattern))):
                name = os.path.basename(full.rstrip("/" + os.sep))
                self.references += 1
                if not re.search(form.format(name=re.escape(name)), text):
                    self.report(doc, line, "the %s `%s` is named nowhere in %s (list it in "
                                "the Layout section)" % (what, os.path.relpath(full, self.root)
                                                         .replace(os.sep, "/"), rel))

    def check_fenced_line(self, doc, line, text, plain):
        """A line of fenced code. In plain blocks (diagrams, listings; no language)
        templates and snake_case calls are names too, as in backticks; in code
        they may be the example's own."""
        heading = doc.heading_at(line)
        inc = INCLUDE_RE.match(text)
        if inc:
            self.references += 1
            if not self.path_exists("include/" + inc.group(1)):
                self.report(doc, line, "no such header: `#include \"%s\"`" % inc.group(1))
        else:
            for p in FENCED_PATH_RE.finditer(text):
                self.check_path_token(doc, line, p.group(1), bare=False)
            for p in BARE_FILE_RE.finditer(text) if plain else ():
                self.check_path_token(doc, line, p.group(1))
        for chain in chains(text):
            self.check_chain(doc, line, chain, heading)
        if plain:
            for m in PLAIN_NAME_RE.finditer(text):
                if m.group(2) or "_" in m.group(1):
                    self.check_name(doc, line, m.group(0), m.group(1), heading)


def chains(text):
    """The qualified names in text, those inside template arguments included."""
    for m in CHAIN_RE.finditer(text):
        yield m.group(1)
        for args in re.finditer(TEMPLATE_ARGS, m.group(1)):
            for inner in chains(args.group(0)[1:-1]):
                yield inner


def glob_to_re(name):
    return ".*".join(re.escape(part) for part in name.split("*"))


def default_docs(root):
    docs = []
    for pattern in DEFAULT_DOCS:
        for full in sorted(glob.glob(os.path.join(root, pattern))):
            docs.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return docs


def main(argv=None):
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="RXMesh documentation check")
    ap.add_argument("--root", default=default_root,
                    help="repository root (default: the parent of this script's folder)")
    ap.add_argument("docs", nargs="*", metavar="FILE.md",
                    help="documents relative to the root (default: %s)" % ", ".join(DEFAULT_DOCS))
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        print("check_docs: no such directory: %s" % root, file=sys.stderr)
        return 2
    docs = args.docs or default_docs(root)
    missing = [d for d in docs if not os.path.isfile(os.path.join(root, d))]
    if missing:
        print("check_docs: no such document: %s" % ", ".join(missing), file=sys.stderr)
        return 2
    checker = Checker(root)
    for rel in docs:
        checker.check_doc(rel)
    problems = sorted(set(checker.problems))
    for path, line, msg in problems:
        print("%s:%d: %s" % (path, line, msg))
    summary = "docs: %d files checked, %d references, %d broken" % (
        len(docs), checker.references, len(problems))
    if problems:
        print(summary, file=sys.stderr)
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
