#!/usr/bin/env python3
"""Tests of scripts/check_layers.py (unittest, standard library only).

Each test builds a small fake repository in a temporary directory and runs the
checker on it with --root, as CI runs it on the real tree.

    python3 scripts/test_check_layers.py
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layers.py")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree when ctest runs this

import check_layers  # noqa: E402  (the module under test)

VIOLATION_LINE = re.compile(r"^[^\s:][^:]*:\d+: \S.*$")


def function_text(name, lines, indent=""):
    """A function of exactly `lines` lines (signature line to closing brace)."""
    assert lines >= 3
    body = ["    int x%d = %d;" % (i, i) for i in range(lines - 3)]
    text = ["void %s(int a)" % name, "{"] + body + ["}"]
    return "\n".join(indent + t if t else t for t in text) + "\n"


# A clean tree that uses every kind of include the checker resolves.
CLEAN_TREE = {
    "include/rxmesh/core/error.h": """\
        #pragma once
        #include <stdexcept>
        namespace rxmesh {
        struct Error : std::runtime_error
        {
            using std::runtime_error::runtime_error;
        };
        }  // namespace rxmesh
        """,
    "include/rxmesh/core/ids.h": """\
        #pragma once
        #include "rxmesh/core/error.h"
        #include "error.h"
        """,
    "include/rxmesh/io/io.h": """\
        #pragma once
        #include "rxmesh/core/ids.h"
        """,
    "include/rxmesh/build/topology.h": '#include "rxmesh/io/io.h"\n',
    "include/rxmesh/patch/patch_store.h": '#include "rxmesh/build/topology.h"\n',
    "include/rxmesh/query/b.h": '#include "rxmesh/patch/patch_store.h"\n',
    "include/rxmesh/attribute/attribute.h": '#include "rxmesh/query/b.h"\n',
    "include/rxmesh/rxmesh.h": """\
        #pragma once
        #include "rxmesh/attribute/attribute.h"
        #include "rxmesh/core/error.h"
        """,
    "include/rxmesh/rxmesh.cuh": '#include "rxmesh/rxmesh.h"\n',
    "include/rxmesh/algo/vertex_normals.cuh": """\
        #pragma once
        #include <vector>
        #include "rxmesh/rxmesh.h"
        #include "rxmesh/query/b.h"
        """,
    "include/rxmesh/reference/topology.h": '#include "rxmesh/io/io.h"\n',
    "src/core/union_find.cuh": '#include "rxmesh/core/error.h"\n',
    "src/io/parse_util.h": '#include "rxmesh/io/io.h"\n',
    "src/io/obj.cpp": """\
        #include "parse_util.h"
        #include "rxmesh/io/io.h"
        """,
    "src/build/topology.cu": """\
        #include "core/union_find.cuh"
        #include "io/parse_util.h"
        #include "rxmesh/build/topology.h"
        """,
    "src/patch/patcher.cu": '#include "rxmesh/patch/patch_store.h"\n',
    "src/facade/rxmesh.cu": """\
        #include "rxmesh/rxmesh.h"
        #include "rxmesh/build/topology.h"
        """,
    "src/reference/topology.cpp": """\
        #include "rxmesh/reference/topology.h"
        #include "rxmesh/patch/patch_store.h"
        #include "rxmesh/algo/vertex_normals.cuh"
        """,
    "apps/info/info.cu": """\
        #include "rxmesh/rxmesh.cuh"
        #include "rxmesh/reference/topology.h"
        #include "local.h"
        """,
    "apps/info/local.h": '#include "rxmesh/algo/vertex_normals.cuh"\n',
    "apps/CMakeLists.txt": "add_subdirectory(info)\n",
    "tests/cpu/test_a.cpp": '#include "rxmesh/reference/topology.h"\n',
    "benchmarks/bench.cu": '#include "rxmesh/reference/topology.h"\n',
}


class TreeTestCase(unittest.TestCase):
    """Creates a fresh copy of CLEAN_TREE per test."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check_layers_test_")
        self.addCleanup(shutil.rmtree, self.root, True)
        for rel, text in CLEAN_TREE.items():
            self.write(rel, textwrap.dedent(text))

    def write(self, rel, text):
        path = os.path.join(self.root, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)

    def run_checker(self, *extra):
        proc = subprocess.run(
            [sys.executable, CHECKER, "--root", self.root] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return proc.returncode, proc.stdout, proc.stderr

    def assert_clean(self):
        rc, out, err = self.run_checker()
        self.assertEqual(rc, 0, "expected a clean tree, got:\n" + out + err)
        self.assertRegex(out, r"^layering: \d+ files checked, 0 violations\n$")
        return out

    def violations(self):
        """Runs the checker on a tree expected to fail; returns its violation lines."""
        rc, out, err = self.run_checker()
        self.assertEqual(rc, 1, "expected violations, got rc=%d:\n%s%s" % (rc, out, err))
        lines = out.splitlines()
        self.assertTrue(lines)
        for line in lines:
            self.assertRegex(line, VIOLATION_LINE)
        self.assertRegex(err, r"layering: \d+ files checked, %d violations" % len(lines))
        return lines


class LayeringTest(TreeTestCase):
    def test_clean_tree_passes(self):
        out = self.assert_clean()
        # include/ (11 files), src/ (7), apps/ (2 sources): tests/ and benchmarks/ not checked
        self.assertIn("20 files checked", out)

    def test_upward_include_fails(self):
        self.write("include/rxmesh/patch/a.h", "#pragma once\n\n#include \"rxmesh/query/b.h\"\n")
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("include/rxmesh/patch/a.h:3: "), lines[0])
        self.assertIn("upward include", lines[0])
        self.assertIn('patch file includes query header "rxmesh/query/b.h"', lines[0])

    def test_upward_include_in_src(self):
        self.write("src/io/bad.cpp", '#include "rxmesh/io/io.h"\n#include "rxmesh/build/topology.h"\n')
        lines = self.violations()
        self.assertEqual(lines, [
            'src/io/bad.cpp:2: upward include: io file includes build header '
            '"rxmesh/build/topology.h"; a layer may include only layers below it or itself'])

    def test_facade_may_not_include_algo(self):
        self.write("include/rxmesh/rxmesh.cuh",
                   '#include "rxmesh/rxmesh.h"\n#include "rxmesh/algo/vertex_normals.cuh"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("include/rxmesh/rxmesh.cuh:2: upward include: "
                                            "facade file includes algo header"), lines[0])

    def test_core_may_not_include_facade(self):
        self.write("include/rxmesh/core/ids.h", '#include "rxmesh/rxmesh.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("include/rxmesh/core/ids.h:1: upward include: core file includes facade "
                      'header "rxmesh/rxmesh.h"', lines[0])

    def test_src_core_is_core(self):
        self.write("src/core/union_find.cuh", '#include "rxmesh/io/io.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("src/core/union_find.cuh:1: upward include: core file includes io", lines[0])

    def test_include_relative_to_src(self):
        # "io/parse_util.h" resolves to src/io/parse_util.h: io, above core
        self.write("src/core/csr.cuh", '#include "io/parse_util.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn('src/core/csr.cuh:1: upward include: core file includes io header '
                      '"io/parse_util.h"', lines[0])

    def test_geometry_sits_below_solver_and_algo(self):
        self.write("include/rxmesh/geometry/operators.h", '#include "rxmesh/solver/cg.cuh"\n')
        self.write("include/rxmesh/solver/cg.cuh",
                   '#include "rxmesh/geometry/operators.h"\n#include "rxmesh/algo/mcf.cuh"\n')
        self.write("include/rxmesh/algo/mcf.cuh", '#include "rxmesh/solver/cg.cuh"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 2, lines)
        self.assertIn("include/rxmesh/geometry/operators.h:1: upward include: geometry file "
                      "includes solver", lines[0])
        self.assertIn("include/rxmesh/solver/cg.cuh:2: upward include: solver file includes "
                      "algo", lines[1])

    def test_library_may_not_include_reference(self):
        self.write("src/patch/x.cpp",
                   '#include "rxmesh/patch/patch_store.h"\n#include "rxmesh/reference/topology.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("src/patch/x.cpp:2: "), lines[0])
        self.assertIn('patch file includes reference header "rxmesh/reference/topology.h"',
                      lines[0])
        self.assertIn("the library may not include the test oracle reference/", lines[0])

    def test_header_may_not_include_reference(self):
        self.write("include/rxmesh/algo/check.cuh", '#include "rxmesh/reference/topology.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("include/rxmesh/algo/check.cuh:1: algo file includes reference", lines[0])

    def test_unresolvable_include_fails(self):
        self.write("src/io/ply.cpp", '#include "parse_util.h"\n#include "no_such.h"\n')
        self.write("include/rxmesh/io/gone.h", '#include "rxmesh/io/missing.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 2, lines)
        self.assertTrue(lines[0].startswith(
            'include/rxmesh/io/gone.h:1: cannot resolve include "rxmesh/io/missing.h"'), lines[0])
        self.assertTrue(lines[1].startswith('src/io/ply.cpp:2: cannot resolve include "no_such.h"'),
                        lines[1])

    def test_angle_includes_and_comments_are_ignored(self):
        self.write("include/rxmesh/core/x.h", textwrap.dedent("""\
            #include <rxmesh/algo/vertex_normals.cuh>
            // #include "rxmesh/algo/vertex_normals.cuh"
            #include "rxmesh/core/error.h"  // not "rxmesh/algo/vertex_normals.cuh"
            """))
        self.assert_clean()

    def test_tests_and_benchmarks_are_not_checked(self):
        self.write("tests/gpu/test_b.cu",
                   '#include "rxmesh/reference/topology.h"\n#include "nowhere.h"\n'
                   + function_text("long_test", 200))
        self.write("benchmarks/other.cu", '#include "nowhere/at/all.h"\n' + "\n" * 700)
        self.write("scripts/x.h", '#include "nowhere.h"\n')
        self.write("cmake/y.h", '#include "nowhere.h"\n')
        self.assert_clean()

    def test_apps_may_include_reference_and_anything(self):
        self.write("apps/check/check.cu", textwrap.dedent("""\
            #include "rxmesh/reference/topology.h"
            #include "rxmesh/algo/vertex_normals.cuh"
            #include "rxmesh/core/error.h"
            """) + function_text("main", 150))
        self.assert_clean()

    def test_reference_may_include_the_library(self):
        self.write("include/rxmesh/reference/normals.h",
                   '#include "rxmesh/algo/vertex_normals.cuh"\n#include "rxmesh/rxmesh.h"\n'
                   '#include "rxmesh/reference/topology.h"\n')
        self.assert_clean()

    def test_file_outside_layers_fails(self):
        self.write("src/misc/util.cpp", '#include "rxmesh/core/error.h"\n')
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("src/misc/util.cpp:1: file is in no known layer"),
                        lines[0])


class FileLengthTest(TreeTestCase):
    def test_601_line_file_fails(self):
        self.write("src/io/big.cpp", "// line\n" * 601)
        lines = self.violations()
        self.assertEqual(lines, ["src/io/big.cpp:601: file has 601 lines; library files stay "
                                 "under 600 (split it)"])

    def test_600_line_file_passes(self):
        self.write("src/io/big.cpp", "// line\n" * 600)
        self.assert_clean()

    def test_reference_files_are_library_files_for_length(self):
        self.write("include/rxmesh/reference/big.h", "\n" * 700)
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("include/rxmesh/reference/big.h:601: file has 700 "
                                            "lines"), lines[0])

    def test_apps_have_no_length_limit(self):
        self.write("apps/info/big.cu", "// x\n" * 900)
        self.assert_clean()


class FunctionLengthTest(TreeTestCase):
    def test_90_line_function_fails(self):
        self.write("src/build/long.cu", "#include <cstdint>\n\n" + function_text("too_long", 90))
        lines = self.violations()
        self.assertEqual(lines, ["src/build/long.cu:3: function too_long is 90 lines; functions "
                                 "stay under 80"])

    def test_81_line_function_fails_and_80_passes(self):
        self.write("src/build/long.cu", function_text("just_right", 80) + "\n"
                   + function_text("one_too_many", 81))
        lines = self.violations()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("src/build/long.cu:82: function one_too_many is 81 lines", lines[0])

    def test_80_line_function_passes(self):
        self.write("include/rxmesh/core/f.h", function_text("fits", 80))
        self.assert_clean()

    def test_long_struct_class_namespace_are_not_functions(self):
        members = "".join("    int m%d = %d;\n" % (i, i) for i in range(85))
        methods = "".join(function_text("get%d" % i, 10, "    ") for i in range(6))
        self.write("include/rxmesh/core/big_types.h", textwrap.dedent("""\
            #pragma once
            namespace rxmesh {
            namespace detail {

            struct Big
            {
            """) + members + "};\n\n" + "class Wide : public Base\n{\n   public:\n" + methods
            + members + "};\n\nunion U\n{\n" + members + "};\n\nenum class E : int\n{\n"
            + "".join("    k%d,\n" % i for i in range(85)) + "};\n\n"
            + "const int kTable[] = {\n" + "".join("    %d,\n" % i for i in range(85))
            + "};\n\n}  // namespace detail\n}  // namespace rxmesh\n")
        self.assert_clean()
        with open(os.path.join(self.root, "include", "rxmesh", "core", "big_types.h")) as fh:
            text = fh.read()
        self.assertLess(len(text.splitlines()), 600)
        funcs = check_layers.find_functions(text)
        self.assertEqual([f.name for f in funcs], ["get%d" % i for i in range(6)])
        self.assertEqual({f.length for f in funcs}, {10})

    def test_member_function_in_class_is_measured_on_its_own(self):
        self.write("include/rxmesh/query/q.h", textwrap.dedent("""\
            #pragma once
            namespace rxmesh {
            template <typename T>
            class Query
            {
               public:
                Query() = default;

                int small() const { return 1; }

            """) + function_text("run", 85, "    ") + "\n"
            + function_text("ok", 20, "    ") + "};\n}  // namespace rxmesh\n")
        lines = self.violations()
        self.assertEqual(lines, ["include/rxmesh/query/q.h:11: function run is 85 lines; "
                                 "functions stay under 80"])

    def test_lambdas_count_toward_their_function(self):
        lambda_body = "".join("        total += %d;\n" % i for i in range(70))
        self.write("src/patch/lam.cu", textwrap.dedent("""\
            #include "rxmesh/patch/patch_store.h"

            namespace rxmesh {

            int with_lambda(int n)
            {
                int  total = 0;
                auto step  = [&](int i) {
            """) + lambda_body + textwrap.dedent("""\
                };
                auto dev = [=] __device__(int i) -> int
                {
                    return i + 1;
                };
                cub_call(stream, [&](void* tmp, std::size_t& bytes) {
                    return f(tmp, bytes);
                });
                for (int i = 0; i < n; ++i)
                {
                    step(i);
                }
                return total + dev(1);
            }

            }  // namespace rxmesh
            """))
        lines = self.violations()
        self.assertEqual(lines, ["src/patch/lam.cu:5: function with_lambda is 88 lines; "
                                 "functions stay under 80"])

    def test_long_lambda_in_a_short_initializer_is_not_a_function(self):
        body = "".join("    x += %d;\n" % i for i in range(100))
        self.write("src/patch/init.cu", "auto g = [](int x) {\n" + body + "    return x;\n};\n")
        self.assert_clean()

    def test_long_control_blocks_are_not_functions(self):
        # a 60-line function whose loop is the bulk of it: one function, 60 lines
        loop = "".join("        y += %d;\n" % i for i in range(50))
        self.write("src/build/loop.cu", textwrap.dedent("""\
            int loops(int n)
            {
                int y = 0;
                for (int i = 0; i < n; ++i)
                {
            """) + loop + "    }\n" + "    return y;\n}\n")
        self.assert_clean()
        with open(os.path.join(self.root, "src", "build", "loop.cu")) as fh:
            funcs = check_layers.find_functions(fh.read())
        self.assertEqual([(f.name, f.start, f.length) for f in funcs], [("loops", 1, 58)])

    def test_list_functions_option(self):
        self.write("src/build/long.cu", function_text("short_one", 10) + "\n"
                   + function_text("long_one", 30))
        rc, out, err = self.run_checker("--list-functions", "20")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("src/build/long.cu:12: long_one (30 lines", out)
        self.assertNotIn("short_one", out)


class FunctionDetectionTest(unittest.TestCase):
    """find_functions() on snippets in the codebase's style."""

    def detect(self, code):
        return [(f.name, f.start, f.end) for f in
                check_layers.find_functions(textwrap.dedent(code))]

    def test_signatures(self):
        code = """\
            namespace rxmesh {
            template <typename T, int N = 1>
            __device__ __forceinline__ T* Foo<T>::get(std::uint32_t i,
                                                       int            k) const noexcept
            {
                return m_data + i;
            }

            Foo::Foo(int a, int b)
                : m_a(a), m_b{b}, m_c(std::max(a, b))
            {
                m_d = {1, 2};
            }

            Foo::~Foo()
            {
            }

            auto f(int x) -> std::pair<int, int>
            {
                return {x, x};
            }

            bool operator==(const A& a, const B& b)
            {
                return a.x == b.x;
            }
            Buf& operator=(Buf&& other) noexcept
            {
                return *this;
            }

            struct Op
            {
                __device__ void operator()(int i) const
                {
                }
                int& operator[](int i) { return v[i]; }
                Op& operator++() { return *this; }
                explicit operator bool() const { return true; }
            };

            __global__ void __launch_bounds__(256) kernel(int* out)
            {
                RXMESH_FOR_EACH_ITEM(i, n)
                {
                    out[i] = 0;
                }
            }
            }  // namespace rxmesh
            """
        self.assertEqual(self.detect(code), [
            ("Foo::get", 2, 7),
            ("Foo::Foo", 9, 13),
            ("Foo::~Foo", 15, 17),
            ("f", 19, 22),
            ("operator==", 24, 27),
            ("operator=", 28, 31),
            ("operator()", 35, 37),
            ("operator[]", 38, 38),
            ("operator++", 39, 39),
            ("operator bool", 40, 40),
            ("kernel", 43, 49),
        ])

    def test_not_functions(self):
        code = """\
            namespace rxmesh {
            struct S
            {
                int a{0};
                int b[2] = {1, 2};
            };
            enum class E : std::uint8_t
            {
                A,
            };
            const std::map<int, std::function<int()>> table = {
                {1, [] { return 1; }},
                {2, []() -> int { return 2; }},
            };
            extern "C" {
            int c_api(int);
            }
            }  // namespace rxmesh
            """
        self.assertEqual(self.detect(code), [])

    def test_control_statements_inside_functions(self):
        code = """\
            void g(int n)
            {
                if (n > 0)
                {
                }
                else if (n < 0) {
                } else {
                }
                while (n--)
                {
                }
                do
                {
                } while (n);
                switch (n)
                {
                    case 1: {
                        break;
                    }
                }
                try
                {
                } catch (const std::exception& e)
                {
                }
                if constexpr (N == 2)
                {
                }
                for (int i = 0; i < n; ++i) for (int j = 0; j < i; ++j)
                {
                }
                std::sort(v.begin(), v.end(), [&](int a, int b) { return a < b; });
            }
            """
        self.assertEqual(self.detect(code), [("g", 1, 33)])

    def test_braces_in_strings_comments_and_chars_are_ignored(self):
        code = """\
            // void commented() {
            /* int x() { */
            const char* s = "}{";
            const char  c = '{';
            const char* r = R"raw(
            }}} ) "
            )raw";
            int big = 1'000'000;
            #define BRACES(x) { x }
            #define MULTI(x) \\
                do {         \\
                    x;       \\
                } while (0)
            void real()
            {
                const char* t = "{";
                char        u = '}';
                // }
            }
            """
        self.assertEqual(self.detect(code), [("real", 14, 19)])

    def test_preprocessor_alternative_signatures(self):
        code = """\
            #ifdef RXMESH_WITH_X
            void alt(int a)
            {
            #else
            void alt()
            {
            #endif
                work();
            }
            #if 0
            void dead( {
            #endif
            void after()
            {
            }
            """
        self.assertEqual(self.detect(code), [("alt", 2, 9), ("after", 13, 15)])

    def test_macro_line_before_a_signature(self):
        code = """\
            RXMESH_INSTANTIATE(float, 3)

            template <int D>
            void next(int a)
            {
            }
            """
        self.assertEqual(self.detect(code), [("next", 3, 6)])

    def test_same_line_brace_and_access_specifiers(self):
        code = """\
            class C
            {
               public:
                int f() const { return 1; }
               private:
                static void g(int x) {
                    h(x);
                }
            };
            """
        self.assertEqual(self.detect(code), [("f", 4, 4), ("g", 6, 8)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
