#!/usr/bin/env python3
"""Layering check for RXMesh (run by CI before the build; standard library only).

Layers, lowest first: core, io, build, spatial, patch, query, attribute, facade, geometry,
matrix, solver, dynamic, algo, apps.
A file may include only files of its own layer or of lower layers; the library
(include/ and src/) may not include the test oracle reference/; library files
stay under 600 lines and their functions under 80 lines.

    python3 scripts/check_layers.py [--root DIR] [--list-functions N]

Prints one line per violation (`path:line: message`) and exits 1, or prints a
one-line summary and exits 0 when the tree is clean. `--list-functions N`
prints every detected function longer than N lines (to check the heuristic)
and exits 0.
"""

import argparse
import bisect
import os
import re
import sys

RANKS = {
    "core": 0,
    "io": 1,
    "build": 2,
    "spatial": 3,
    "patch": 4,
    "query": 5,
    "attribute": 6,
    "facade": 7,
    "geometry": 8,
    "matrix": 9,
    "solver": 10,
    "dynamic": 11,
    "algo": 12,
    "apps": 13,
}
LIB_DIR_LAYERS = ("core", "io", "build", "spatial", "patch", "query", "attribute", "geometry",
                  "matrix", "solver", "dynamic", "algo")
REFERENCE = "reference"

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

SOURCE_EXTS = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".cu", ".c", ".cc", ".cpp", ".cxx",
               ".inl", ".ipp", ".tpp", ".inc")
SCANNED_TOP = ("include", "src", "apps")

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


# ----------------------------------------------------------------------------
# paths -> layers


def layer_of(rel):
    """Layer of a repository-relative path ('/'-separated).

    Returns a layer name (one of RANKS, or 'reference'), None for paths that are
    not checked (tests/, benchmarks/, ...), or '?' for a file under include/ or
    src/ that is in no known layer.
    """
    parts = rel.split("/")
    top = parts[0]
    if top == "apps":
        return "apps"
    if top == "include":
        if len(parts) >= 3 and parts[1] == "rxmesh":
            if len(parts) == 3:
                return "facade"
            sub = parts[2]
            if sub in LIB_DIR_LAYERS:
                return sub
            if sub == REFERENCE:
                return REFERENCE
        return "?"
    if top == "src":
        if len(parts) >= 3:
            sub = parts[1]
            if sub in LIB_DIR_LAYERS:
                return sub
            if sub == "facade":
                return "facade"
            if sub == REFERENCE:
                return REFERENCE
        return "?"
    return None


# ----------------------------------------------------------------------------
# C++ text cleaning


PP_COND_RE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")


def drop_inactive_branches(text):
    """Blank the lines of `#elif`/`#else` branches and of `#if 0` blocks.

    Only one branch of a conditional is kept, so that alternative signatures
    (`#ifdef X / void f(int a) { / #else / void f() { / #endif`) do not leave
    unbalanced braces. Line structure is kept.
    """
    lines = text.split("\n")
    stack = []  # per open #if: [this branch active, a branch was taken]
    for i, line in enumerate(lines):
        m = PP_COND_RE.match(line)
        active_before = all(entry[0] for entry in stack)
        if m:
            word, rest = m.group(1), m.group(2).strip()
            if word in ("if", "ifdef", "ifndef"):
                zero = word == "if" and re.match(r"0\b", rest) is not None
                stack.append([not zero, not zero])
            elif word in ("elif", "else") and stack:
                top = stack[-1]
                top[0] = not top[1]
                top[1] = True
            elif word == "endif" and stack:
                stack.pop()
            continue
        if not active_before:
            lines[i] = ""
    return "\n".join(lines)


def clean_code(text):
    """Blank out comments, string/char literal contents and preprocessor lines.

    Newlines are kept (so offsets and line numbers stay valid); string and
    char literals keep their quote characters with blank contents. Inactive
    preprocessor branches are blanked too (drop_inactive_branches).
    """
    text = drop_inactive_branches(text)
    out = list(text)
    n = len(text)
    i = 0
    at_line_start = True  # only whitespace seen since the last newline

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if at_line_start and c == "#":
            # preprocessor directive, with backslash continuations and comments
            j = i
            while j < n:
                if text[j] == "\n":
                    k = j - 1
                    while k > i and text[k] in " \t\r":
                        k -= 1
                    if text[k] == "\\":
                        j += 1
                        continue
                    break
                if text.startswith("/*", j):
                    e = text.find("*/", j + 2)
                    j = n if e < 0 else e + 2
                    continue
                if text.startswith("//", j):
                    e = text.find("\n", j)
                    j = n if e < 0 else e
                    continue
                j += 1
            blank(i, j)
            i = j
            continue
        at_line_start = False
        if text.startswith("//", i):
            e = text.find("\n", i)
            e = n if e < 0 else e
            blank(i, e)
            i = e
            continue
        if text.startswith("/*", i):
            e = text.find("*/", i + 2)
            e = n if e < 0 else e + 2
            blank(i, e)
            i = e
            continue
        if c == '"':
            # raw string?  R"delim( ... )delim"  (prefixes R, LR, uR, UR, u8R)
            k = i
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
                k -= 1
            prefix = text[k:i]
            if prefix in ("R", "LR", "uR", "UR", "u8R"):
                p = text.find("(", i + 1)
                if p >= 0:
                    delim = text[i + 1:p]
                    e = text.find(")" + delim + '"', p + 1)
                    e = n if e < 0 else e + len(delim) + 2
                    blank(i + 1, e - 1)
                    i = e
                    continue
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
            continue
        if c == "'":
            # digit separator (1'000'000) or char literal?
            k = i
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_'."):
                k -= 1
            if k < i and text[k].isdigit():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
            continue
        i += 1
    return "".join(out)


# ----------------------------------------------------------------------------
# function detection

TOKEN_RE = re.compile(
    r"""
    (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<num>\.?[0-9](?:[0-9A-Za-z_.']|[eEpP][+-])*)
  | (?P<str>"[^"\n]*"|'[^'\n]*')
  | (?P<op>::|->\*|->|\.\.\.|<=>|<<=|<<|==|!=|<=|>=|\+\+|--|&&|\|\||[-+*/%^|&]=|.)
    """,
    re.VERBOSE,
)

# tokens that may follow a function's parameter list before its body
QUALIFIERS = {
    "const", "volatile", "noexcept", "override", "final", "&", "&&", "throw",
    "__restrict__", "__restrict", "try",
}
# words that precede '(' without being a function name
NOT_A_NAME = {
    "if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "alignas",
    "decltype", "noexcept", "static_assert", "constexpr", "__launch_bounds__", "defined",
    "throw", "new", "delete", "do", "else", "case", "typeid", "co_return", "co_await",
    "__attribute__", "__declspec", "requires", "typename", "template",
}
CONTROL = {"if", "for", "while", "switch", "catch", "do", "else", "try"}
LAMBDA_SPECIFIERS = {"__device__", "__host__", "mutable", "constexpr", "consteval",
                     "static", "noexcept"}
BLOCK_KEYWORDS = {"struct", "class", "union", "namespace", "enum", "extern"}
CLASS_KEYWORDS = {"struct", "class", "union"}
ACCESS = {"public", "private", "protected"}
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


def tokenize(text, base):
    toks = []
    for m in TOKEN_RE.finditer(text):
        s = m.group(0)
        if s.isspace():
            continue
        toks.append((s, base + m.start()))
    return toks


def match_back(toks, i, open_s, close_s):
    """Index of the token opening the group whose closing token is toks[i]."""
    depth = 0
    while i >= 0:
        s = toks[i][0]
        if s == close_s:
            depth += 1
        elif s == open_s:
            depth -= 1
            if depth == 0:
                return i
        i -= 1
    return -1


def match_forward(toks, i, open_s, close_s):
    depth = 0
    while i < len(toks):
        s = toks[i][0]
        if s == open_s:
            depth += 1
        elif s == close_s:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def strip_leading(toks):
    """Drop access specifiers / labels, `template <...>` and [[attributes]] at the front."""
    changed = True
    while changed and toks:
        changed = False
        if len(toks) >= 2 and toks[0][0] in ACCESS and toks[1][0] == ":":
            toks = toks[2:]
            changed = True
        elif toks[0][0] == "template" and len(toks) >= 2 and toks[1][0] == "<":
            # template parameter lists may hold (...) but no unbalanced '<'/'>' we care about
            depth = 0
            j = 1
            while j < len(toks):
                s = toks[j][0]
                if s == "<":
                    depth += 1
                elif s == ">":
                    depth -= 1
                    if depth == 0:
                        break
                elif s == "(":
                    k = match_forward(toks, j, "(", ")")
                    j = k if k >= 0 else j
                j += 1
            toks = toks[j + 1:]
            changed = True
        elif len(toks) >= 2 and toks[0][0] == "[" and toks[1][0] == "[":
            k = match_forward(toks, 0, "[", "]")
            if k < 0:
                break
            toks = toks[k + 1:]
            changed = True
    return toks


def _is_ident(s):
    return IDENT_RE.match(s) is not None


def _strip_access(toks):
    while len(toks) >= 2 and toks[0][0] in ACCESS and toks[1][0] == ":":
        toks = toks[2:]
    return toks


def _params_end(toks):
    """Index of the ')' that closes a parameter list ending the head, or -1.

    Skips what may follow a parameter list: a trailing return type, const /
    noexcept(...) / override / ... qualifiers, ALL_CAPS macro qualifiers and a
    constructor's member initializer list.
    """
    end = len(toks) - 1
    # trailing return type: cut at a top-level '->' that follows ')' or a qualifier
    depth = 0
    for k, (s, _) in enumerate(toks):
        if s in ("(", "[", "{"):
            depth += 1
        elif s in (")", "]", "}"):
            depth -= 1
        elif s == "->" and depth == 0 and k > 0 and (
                toks[k - 1][0] == ")" or toks[k - 1][0] in QUALIFIERS
                or toks[k - 1][0] in LAMBDA_SPECIFIERS):
            end = k - 1
            break
    while end >= 0:
        s = toks[end][0]
        if s in QUALIFIERS or (s in LAMBDA_SPECIFIERS and s != "static"):
            end -= 1
            continue
        if s == ")":
            o = match_back(toks, end, "(", ")")
            if o >= 1 and toks[o - 1][0] in ("noexcept", "throw", "__attribute__"):
                end = o - 2
                continue
        if re.match(r"[A-Z][A-Z0-9_]*\Z", s) and end >= 1 and toks[end - 1][0] == ")":
            end -= 1  # e.g. `void f() RXMESH_NOEXCEPT`
            continue
        break
    if end < 0 or toks[end][0] != ")":
        return -1
    # constructor member initializer list: the parameter list is the ')' before
    # the first top-level ':' that follows a ')'
    depth = 0
    seen_close = False
    for k in range(end + 1):
        s = toks[k][0]
        if s in ("(", "[", "{"):
            depth += 1
        elif s in (")", "]", "}"):
            depth -= 1
            if depth == 0 and s == ")":
                seen_close = True
        elif s == ":" and depth == 0 and seen_close:
            e = k - 1
            while e >= 0 and toks[e][0] in QUALIFIERS:
                e -= 1
            return e if e >= 0 and toks[e][0] == ")" else -1
    return end


def _operator_name(toks, o):
    """('operator...', index of 'operator') when the '(' at o follows an operator name."""
    for k in range(1, 6):
        if o - k < 0:
            break
        s = toks[o - k][0]
        if s == "operator":
            parts = [t[0] for t in toks[o - k + 1:o]]
            text = ""
            for part in parts:
                if text and _is_ident(part) and (_is_ident(text[-1]) or text == ""):
                    text += " "
                text += part
            if parts and _is_ident(parts[0]):
                text = " " + text  # operator bool, operator new
            return "operator" + text, o - k
        if s in (";", "{", "}", ","):
            break
    return None, o - 1


def classify_head(head_toks, in_body=False):
    """Classify the code before a '{'.

    Returns (kind, name, offset of the signature's first token) where kind is
    one of 'function', 'lambda', 'control', 'class' (struct/class/union body),
    'block' (namespace/enum scope, compound statement, label) or 'expr'
    (initializer, brace-init, ...). in_body: the brace is in a function body
    (not in a local class), where `NAME(...) {` is a statement such as a
    macro loop, never a function definition.
    """
    if not head_toks:
        return ("block", None, None)
    if head_toks[-1][0] == ":":
        return ("block", None, None)  # label, case X:, access specifier
    lead = _strip_access(list(head_toks))
    toks = strip_leading(lead)
    if not toks:
        return ("block", None, None)
    words = [t[0] for t in toks]
    first, last = words[0], words[-1]

    end = _params_end(toks)
    if end < 0:
        # not a parameter list
        if last in ("else", "do", "try"):
            return ("control", None, None)
        if first in BLOCK_KEYWORDS or (first in ("typedef", "inline") and len(words) > 1
                                       and words[1] in BLOCK_KEYWORDS):
            # `struct Foo`, `namespace x`, `enum class E : int`, `extern "C"`; but
            # `struct Foo x = {` is an initializer
            if "=" in words:
                return ("expr", None, None)
            if first in CLASS_KEYWORDS or (first == "typedef" and words[1] in CLASS_KEYWORDS):
                return ("class", None, None)
            return ("block", None, None)
        if last == "]":
            return ("lambda", None, None)  # [&] { ... }
        return ("expr", None, None)

    o = match_back(toks, end, "(", ")")
    if o <= 0:
        return ("expr", None, None)
    # a top-level '=' before the parameter list: an initializer (`auto f = [](...)`
    # is a lambda), unless it is `operator=`
    depth = 0
    for k in range(o):
        s = toks[k][0]
        if s in ("(", "[", "{"):
            depth += 1
        elif s in (")", "]", "}"):
            depth -= 1
        elif s == "=" and depth == 0 and not (k > 0 and toks[k - 1][0] == "operator"):
            return ("lambda", None, None) if "]" in words[k:o] else ("expr", None, None)

    name, p = _operator_name(toks, o)
    if name is None:
        # lambdas: [&](...), [=] __device__ (...), []<typename T>(...)
        q = p
        while q >= 0 and toks[q][0] in LAMBDA_SPECIFIERS:
            q -= 1
        if q >= 0 and toks[q][0] == "]":
            return ("lambda", None, None)
        if toks[p][0] == ">":
            lt = match_back(toks, p, "<", ">")
            if lt >= 1 and toks[lt - 1][0] == "]":
                return ("lambda", None, None)
            if lt < 1:
                return ("expr", None, None)
            p = lt - 1  # explicit specialisation: f<int>(...)
        prev = toks[p][0]
        if prev in NOT_A_NAME:
            if prev in CONTROL or (prev == "constexpr" and p >= 1 and toks[p - 1][0] == "if"):
                return ("control", None, None)
            return ("expr", None, None)
        if not _is_ident(prev):
            return ("expr", None, None)
        name = prev
    # qualified name: A::B<T>::name, A::~A
    if p >= 1 and toks[p - 1][0] == "~":
        name = "~" + name
        p -= 1
    while p >= 2 and toks[p - 1][0] == "::":
        q = p - 2
        if toks[q][0] == ">":
            lt = match_back(toks, q, "<", ">")
            if lt < 1:
                break
            q = lt - 1
        if not _is_ident(toks[q][0]):
            break
        name = toks[q][0] + "::" + name
        p = q
    if first in BLOCK_KEYWORDS and first != "extern":
        return ("class", None, None) if first in CLASS_KEYWORDS else ("block", None, None)
    if in_body:
        return ("control", None, None)  # e.g. RXMESH_FOR_EACH_ITEM(i, n) { ... }
    # the signature starts at its first token (a template <...> line included)
    return ("function", name, lead[0][1], toks[p][1])


class Function:
    __slots__ = ("name", "start", "end")

    def __init__(self, name, start, end):
        self.name = name
        self.start = start
        self.end = end

    @property
    def length(self):
        return self.end - self.start + 1


def find_functions(text):
    """Return the list of Function (name, first line, last line; 1-based)."""
    code = clean_code(text)
    line_starts = [0]
    for m in re.finditer("\n", code):
        line_starts.append(m.end())
    orig_lines = text.split("\n")
    code_lines = code.split("\n")

    def line_of(off):
        return bisect.bisect_right(line_starts, off)

    def signature_line(start_off, name_off):
        """First line of a signature: a blank line between the head's first token
        and the function name means the head began with something else (a macro
        call without ';', say): the signature starts after the blank line."""
        first, name_line = line_of(start_off), line_of(name_off)
        for ln in range(name_line - 1, first - 1, -1):
            if not orig_lines[ln - 1].strip():
                k = ln + 1
                while k < name_line and not code_lines[k - 1].strip():
                    k += 1
                return k
        return first

    functions = []
    # stack entries: (kind, name, start_offset, saved_head_start, saved_paren_depth)
    stack = []
    head_start = 0
    paren = 0
    for m in re.finditer(r"[{};()]", code):
        c = m.group(0)
        pos = m.start()
        if c == "(":
            paren += 1
        elif c == ")":
            paren = max(0, paren - 1)
        elif c == ";":
            if paren == 0:
                head_start = pos + 1
        elif c == "{":
            head = code[head_start:pos]
            in_body = False
            for entry in reversed(stack):
                if entry[0] == "class":
                    break
                if entry[0] in ("function", "lambda"):
                    in_body = True
                    break
            kind, name, start, name_off = (classify_head(tokenize(head, head_start), in_body)
                                           + (None,))[:4]
            if kind == "function":
                start = signature_line(start, name_off)
            stack.append((kind, name, start, head_start, paren))
            head_start = pos + 1
            paren = 0
        else:  # '}'
            if not stack:
                head_start = pos + 1
                paren = 0
                continue
            kind, name, start, saved_head, saved_paren = stack.pop()
            paren = saved_paren
            if kind == "function":
                functions.append(Function(name, start, line_of(pos)))
            if kind in ("expr", "lambda"):
                head_start = saved_head  # the statement goes on after the braces
            else:
                head_start = pos + 1
    functions.sort(key=lambda f: (f.start, f.end))
    return functions


# ----------------------------------------------------------------------------
# include resolution


def resolve_include(root, rel, target):
    """Repository-relative path an include resolves to, or None."""
    def exists(p):
        return os.path.isfile(os.path.join(root, *p.split("/")))

    def norm(p):
        p = os.path.normpath(p).replace(os.sep, "/")
        return None if p.startswith("../") or p == ".." or os.path.isabs(p) else p

    if target.startswith("rxmesh/"):
        p = norm("include/" + target)
        return p if p and exists(p) else None
    if target.startswith("detail/"):
        p = norm("src/" + target)
        return p if p and exists(p) else None
    folder = os.path.dirname(rel)
    for cand in (os.path.join(folder, target), os.path.join("src", target)):
        p = norm(cand)
        if p and exists(p):
            return p
    return None


def describe(layer):
    return "unknown-layer" if layer == "?" else layer


def check_include(root, rel, layer, lineno, target, out):
    resolved = resolve_include(root, rel, target)
    if resolved is None:
        if target.startswith("rxmesh/"):
            where = "include/" + target
        elif target.startswith("detail/"):
            where = "src/" + target
        else:
            folder = os.path.dirname(rel) or "."
            where = "%s/ or src/" % folder
        out.append((rel, lineno, 'cannot resolve include "%s" (no such file in %s)'
                    % (target, where)))
        return
    tlayer = layer_of(resolved)
    if layer == "apps":
        return  # apps may include anything
    if tlayer is None or tlayer == "?":
        out.append((rel, lineno, '%s file includes "%s", which resolves to %s, a file in no '
                    'layer; include only files of the library layers'
                    % (describe(layer), target, resolved)))
        return
    if tlayer == REFERENCE:
        if layer == REFERENCE:
            return
        out.append((rel, lineno, '%s file includes reference header "%s": the library may not '
                    'include the test oracle reference/ (only tests, benchmarks and apps\' '
                    '--check use it)' % (describe(layer), target)))
        return
    if layer == REFERENCE:
        if tlayer == "apps":
            out.append((rel, lineno, 'reference file includes apps header "%s"; reference may '
                        'include only library layers' % target))
        return
    if layer == "?":
        return  # already reported as a file in no layer
    if RANKS[tlayer] > RANKS[layer]:
        out.append((rel, lineno, 'upward include: %s file includes %s header "%s"; a layer may '
                    'include only layers below it or itself' % (layer, tlayer, target)))


# ----------------------------------------------------------------------------
# driver


def scanned_files(root):
    for top in SCANNED_TOP:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXTS):
                    full = os.path.join(dirpath, f)
                    yield os.path.relpath(full, root).replace(os.sep, "/")


def read(root, rel):
    with open(os.path.join(root, *rel.split("/")), encoding="utf-8", errors="replace") as fh:
        return fh.read()


def check_tree(root):
    """Return (number of files checked, sorted list of (path, line, message))."""
    violations = []
    count = 0
    for rel in scanned_files(root):
        layer = layer_of(rel)
        if layer is None:
            continue
        count += 1
        text = read(root, rel)
        lines = text.splitlines()
        if layer == "?":
            violations.append((rel, 1, "file is in no known layer (expected include/rxmesh/"
                               "<layer>/, include/rxmesh/*, src/<layer>/, src/facade/, src/detail/,"
                               " src/reference/ or apps/; layers: %s)"
                               % ", ".join(sorted(RANKS, key=RANKS.get))))
        for i, line in enumerate(lines, 1):
            m = INCLUDE_RE.match(line)
            if m:
                check_include(root, rel, layer, i, m.group(1), violations)
        if layer == "apps":
            continue
        # library files (include/ and src/, reference included)
        if len(lines) > MAX_FILE_LINES:
            violations.append((rel, MAX_FILE_LINES + 1,
                               "file has %d lines; library files stay under %d (split it)"
                               % (len(lines), MAX_FILE_LINES)))
        for f in find_functions(text):
            if f.length > MAX_FUNCTION_LINES:
                violations.append((rel, f.start, "function %s is %d lines; functions stay under %d"
                                   % (f.name, f.length, MAX_FUNCTION_LINES)))
    violations.sort(key=lambda v: (v[0], v[1], v[2]))
    return count, violations


def list_functions(root, limit):
    found = []
    for rel in scanned_files(root):
        layer = layer_of(rel)
        if layer is None or layer == "apps":
            continue
        for f in find_functions(read(root, rel)):
            if f.length > limit:
                found.append("%s:%d: %s (%d lines, to line %d)"
                             % (rel, f.start, f.name, f.length, f.end))
    return found


def main(argv=None):
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="RXMesh layering check")
    ap.add_argument("--root", default=default_root,
                    help="repository root (default: the parent of this script's folder)")
    ap.add_argument("--list-functions", type=int, metavar="N", default=None,
                    help="print every detected function longer than N lines and exit")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        print("check_layers: no such directory: %s" % root, file=sys.stderr)
        return 2
    if args.list_functions is not None:
        found = list_functions(root, args.list_functions)
        for line in found:
            print(line)
        print("functions longer than %d lines: %d" % (args.list_functions, len(found)))
        return 0
    count, violations = check_tree(root)
    for path, line, msg in violations:
        print("%s:%d: %s" % (path, line, msg))
    summary = "layering: %d files checked, %d violations" % (count, len(violations))
    if violations:
        print(summary, file=sys.stderr)
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
