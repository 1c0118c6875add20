#!/usr/bin/env python3
"""Tests of scripts/check_docs.py (unittest, standard library only).

Each test builds a small fake repository in a temporary directory and runs the
checker on it with --root, as CI runs it on the real tree.

    python3 scripts/test_check_docs.py
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
CHECKER = os.path.join(HERE, "check_docs.py")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree when ctest runs this

import check_docs  # noqa: E402  (the module under test)

PROBLEM_LINE = re.compile(r"^[^\s:][^:]*:\d+: \S.*$")

# A tree with one declaration of every kind the checker resolves.
CODE = {
    "include/rxmesh/rxmesh.h": """\
        #pragma once
        #include "rxmesh/query/op.h"
        namespace rxmesh {
        template <Op op, int BlockThreads>
        class PatchQuery;
        class RXMesh
        {
           public:
            template <Op op, typename F>
            void for_each(F f) const;
            MemoryReport memory() const;
            std::uint32_t num_vertices() const { return m_v; }

           private:
            std::uint32_t m_v = 0, m_e = 0;
        };
        }  // namespace rxmesh
        """,
    "include/rxmesh/query/op.h": """\
        #pragma once
        #define RXMESH_CHECK_CUDA(x) x
        namespace rxmesh {
        enum class Op : int
        {
            VV,
            FV = 5,  // not: Bogus
        };
        template <typename T, int N, typename Id>
        using Attribute = T;
        }  // namespace rxmesh
        """,
    "include/rxmesh/query/patch_query.cuh": """\
        #pragma once
        namespace rxmesh {
        template <Op op, int BlockThreads = 64>
        class PatchQuery
        {
           public:
            template <typename Lambda>
            __device__ void run(Lambda&& user) const;
        };
        template <typename Query, typename... Args>
        void launch(const Query& q, void (*kernel)(Args...), Args... args)
        {
            auto local_kernel = kernel;   // a variable: not a function
            launch_impl(q, local_kernel);  // a call: not a declaration
        }
        }  // namespace rxmesh
        """,
    "include/rxmesh/solver/cg.cuh": """\
        #pragma once
        // "rxmesh::not_declared_in_a_comment" and not_a_function() in a comment
        namespace rxmesh {
        struct CgOptions
        {
            float tolerance = 1e-6f;
        };
        inline int conjugate_gradient(const char* s = "solve_in_a_string()") { return 0; }
        }  // namespace rxmesh
        """,
    "include/rxmesh/algo/mcf.cuh": "#pragma once\n",
    "src/patch/patcher.cu": """\
        #include "rxmesh/rxmesh.h"
        namespace rxmesh {
        PatcherResult lloyd_patches(int n)
        {
            return {};
        }
        template <Op op, typename F>
        void RXMesh::for_each(F f) const
        {
        }
        }  // namespace rxmesh
        """,
    "apps/info/info.cu": """\
        namespace rxmesh::app {
        struct Json
        {
        };
        int run(int argc);
        }  // namespace rxmesh::app
        """,
    "apps/common/app_support.h": "#pragma once\n",
    "scripts/check_layers.py": "",
    "tests/query/test_queries.cu": "",
    "benchmarks/results/gpu-a/README.md": "Made by `scripts/check_layers.py`: [x](data.md).\n",
    "benchmarks/results/gpu-a/data.md": "",
}

README = """\
    # Fake

    `include/rxmesh/rxmesh.h`, `rxmesh/solver/cg.cuh`, `algo/mcf.cuh`, `query/`,
    `cg.cuh`, `apps/<name>/`, `src/patch/*.cu`, `include/rxmesh/*.h`, `tests/query/test_queries.cu`;
    `scripts/check_layers.py --root DIR`; [the architecture](ARCHITECTURE.md#layers).

    `RXMesh::for_each<Op::VV>`, `rxmesh::RXMesh::memory()`, `Op::FV`, `app::Json`,
    `rxmesh::app::run`, `CgOptions::tolerance`, `rxmesh::lloyd_patches`, `std::vector<int>`,
    `PatchQuery<Op, BlockThreads>`, `conjugate_gradient(A, b)`, `Attribute<T, N, Id>`,
    `RXMESH_CHECK_CUDA`, `RXMesh::num_vertices()`, `rxmesh::launch(q, kernel, stream, args...)`
    and a call across a line break: `rxmesh::launch(q,
    kernel)`. Not code: `--check`, `dropped_faces`, `f(v, d)`, `d.q`, `M_EV`, `-o OUT.ply`,
    `validate()`, `CUDAARCHS`, `rxmesh::rxmesh` (the CMake target), `add_subdirectory(RXMesh)`.

    ```cpp
    #include "rxmesh/rxmesh.h"
    rxmesh::RXMesh mesh(soup);         // see solver/cg.cuh
    mesh.for_each<rxmesh::Op::VV>(f);  // my_kernel<T>() and helper_fn() are the example's own
    ```

    ```sh
    cmake --build build && ./build/apps/info/info
    ```

    ## Layout

    ```
    include/rxmesh/algo   cg.cuh, mcf.cuh: Attribute<T, N, Id>, lloyd_patches()
    apps/                 info/, common/
    ```

    ## From the paper

    The paper's `kernel<Op>` with an `Iterator`:

    ```
    rxmesh.template kernel<Op::FV>(lambda)
    ```
    """


class TreeTestCase(unittest.TestCase):
    """Creates a fresh copy of the tree, README.md and ARCHITECTURE.md per test."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check_docs_test_")
        self.addCleanup(shutil.rmtree, self.root, True)
        for rel, text in CODE.items():
            self.write(rel, textwrap.dedent(text))
        self.write("README.md", textwrap.dedent(README))
        self.write("ARCHITECTURE.md", "# Architecture\n\n## Layers\n\n`src/patch/patcher.cu`\n")

    def write(self, rel, text):
        path = os.path.join(self.root, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)

    def append(self, rel, text):
        with open(os.path.join(self.root, *rel.split("/")), "a", encoding="utf-8") as fh:
            fh.write(text)

    def run_checker(self, *extra):
        proc = subprocess.run(
            [sys.executable, CHECKER, "--root", self.root] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return proc.returncode, proc.stdout, proc.stderr

    def assert_clean(self, *extra):
        rc, out, err = self.run_checker(*extra)
        self.assertEqual(rc, 0, "expected clean documents, got:\n" + out + err)
        self.assertRegex(out, r"^docs: \d+ files checked, \d+ references, 0 broken\n$")
        return out

    def problems(self, *extra):
        """Runs the checker on documents expected to fail; returns its problem lines."""
        rc, out, err = self.run_checker(*extra)
        self.assertEqual(rc, 1, "expected broken references, got rc=%d:\n%s%s" % (rc, out, err))
        lines = out.splitlines()
        self.assertTrue(lines)
        for line in lines:
            self.assertRegex(line, PROBLEM_LINE)
        self.assertRegex(err, r"docs: \d+ files checked, \d+ references, %d broken" % len(lines))
        return lines

    def readme_line(self, needle):
        with open(os.path.join(self.root, "README.md"), encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if needle in line:
                    return i
        self.fail("%r not in README.md" % needle)


class CleanTest(TreeTestCase):
    def test_clean_tree_passes(self):
        out = self.assert_clean()
        # README.md, ARCHITECTURE.md and benchmarks/results/gpu-a/README.md
        self.assertIn("3 files checked", out)

    def test_files_given_on_the_command_line(self):
        out = self.assert_clean("ARCHITECTURE.md")
        self.assertIn("1 files checked", out)

    def test_missing_document_is_an_error(self):
        rc, out, err = self.run_checker("NOPE.md")
        self.assertEqual(rc, 2)
        self.assertIn("no such document: NOPE.md", err)


class PathTest(TreeTestCase):
    def test_made_up_path_fails(self):
        self.append("README.md", "\nSee `include/rxmesh/query/nope.cuh` and `algo/gone.cuh`.\n")
        lines = self.problems()
        n = self.readme_line("nope.cuh")
        self.assertEqual(lines, [
            "README.md:%d: no such path: `algo/gone.cuh` (include/rxmesh/algo/gone.cuh)" % n,
            "README.md:%d: no such path: `include/rxmesh/query/nope.cuh`" % n])

    def test_made_up_file_name_fails(self):
        self.append("ARCHITECTURE.md", "\nThe rows: `row_magic.cuh`.\n")
        self.assertEqual(self.problems(),
                         ["ARCHITECTURE.md:7: no file named `row_magic.cuh` in the repository"])

    def test_placeholder_and_glob_need_a_match(self):
        self.append("README.md", "\n`apps/<name>/missing.cu`, `src/facade/*.cu`\n")
        lines = self.problems()
        self.assertEqual(len(lines), 2, lines)
        self.assertIn("no such path: `apps/<name>/missing.cu`", lines[0])
        self.assertIn("no such path: `src/facade/*.cu`", lines[1])

    def test_a_file_is_not_a_folder(self):
        self.append("README.md", "\n`scripts/check_layers.py/`\n")
        self.assertEqual(len(self.problems()), 1)

    def test_broken_link_fails(self):
        self.append("README.md", "\n[gone](docs/gone.md) and [web](https://example.com/x.md)\n")
        n = self.readme_line("docs/gone.md")
        self.assertEqual(self.problems(), ["README.md:%d: broken link target `docs/gone.md`" % n])

    def test_links_resolve_from_their_document(self):
        self.write("benchmarks/results/gpu-a/README.md", "[x](../../../README.md) [y](nope.md)\n")
        self.assertEqual(self.problems(), [
            "benchmarks/results/gpu-a/README.md:1: broken link target `nope.md`"])

    def test_fenced_include_and_path(self):
        self.append("README.md", '\n```cpp\n#include "rxmesh/algo/nope.cuh"\n'
                                 "// as in src/nope/x.cu\n```\n")
        lines = self.problems()
        self.assertEqual(len(lines), 2, lines)
        self.assertIn('no such header: `#include "rxmesh/algo/nope.cuh"`', lines[0])
        self.assertIn("no such path: `src/nope/x.cu`", lines[1])

    def test_shell_build_outputs_are_not_paths(self):
        self.append("README.md", "\n```sh\n./build/apps/nope/nope --check\n```\n")
        self.assert_clean()


class NameTest(TreeTestCase):
    def test_made_up_qualified_names_fail(self):
        self.append("README.md", "\n`patch::lloyd_patches`, `RXMesh::launch_all`, `Op::EE`,"
                                 " `rxmesh::nope(x)`\n")
        n = self.readme_line("patch::lloyd_patches")
        self.assertEqual(self.problems(), [
            "README.md:%d: unknown name `Op::EE`: `EE` is not declared in `Op`" % n,
            "README.md:%d: unknown name `RXMesh::launch_all`: `launch_all` is not declared in "
            "`RXMesh`" % n,
            "README.md:%d: unknown name `patch::lloyd_patches`: `patch` is no namespace, class or "
            "enum declared in include/, src/ or apps/" % n,
            "README.md:%d: unknown name `rxmesh::nope`: `nope` is not declared in `rxmesh`" % n])

    def test_cmake_options_are_names(self):
        self.write("CMakeLists.txt", 'option(RXMESH_BUILD_THINGS "Build things" OFF)\n'
                                     'set(RXMESH_DATA_DIR "/usr/share" CACHE PATH "data")\n')
        self.write("cmake/Extra.cmake", "Option(RXMESH_EXTRA_FLAG \"x\" ON)\n")
        self.append("README.md", "\n`RXMESH_BUILD_THINGS`, `RXMESH_DATA_DIR`, `RXMESH_EXTRA_FLAG`\n")
        self.assert_clean()
        self.append("README.md", "\n`RXMESH_BUILD_STUFF`\n")
        n = self.readme_line("RXMESH_BUILD_STUFF")
        self.assertEqual(self.problems(), [
            "README.md:%d: unknown name `RXMESH_BUILD_STUFF`: no macro `RXMESH_BUILD_STUFF` is "
            "defined in include/, src/ or apps/" % n])

    def test_cmake_alias_targets_are_names(self):
        self.write("CMakeLists.txt", "add_library(rxmesh_extra STATIC x.cu)\n"
                                     "add_library(rxmesh::extra ALIAS rxmesh_extra)\n")
        self.append("README.md", "\n`rxmesh::extra`\n")
        self.assert_clean()
        self.append("README.md", "\n`rxmesh::extras`\n")
        n = self.readme_line("rxmesh::extras")
        self.assertEqual(self.problems(), [
            "README.md:%d: unknown name `rxmesh::extras`: `extras` is not declared in `rxmesh`"
            % n])

    def test_made_up_unqualified_names_fail(self):
        # under a heading of its own: kernel<Op> is allowed only under "From the paper"
        self.append("README.md", "\n## Queries\n\n`PatchQuerry`, `launch_everything(q)`,"
                                 " `RXMESH_NOPE`, `kernel<Op>`\n")
        lines = self.problems()
        self.assertEqual(len(lines), 4, lines)
        for name in ["PatchQuerry", "launch_everything(q)", "RXMESH_NOPE", "kernel<Op>"]:
            self.assertEqual(sum("unknown name `%s`" % name in line for line in lines), 1,
                             (name, lines))

    def test_a_variable_or_a_call_is_not_a_declaration(self):
        # `local_kernel` and `launch_impl` appear in code, but declare no function
        self.append("README.md", "\n`local_kernel<int>`, `launch_impl(q, k)`\n")
        self.assertEqual(len(self.problems()), 2)

    def test_comments_and_strings_declare_nothing(self):
        self.append("README.md", "\n`rxmesh::not_declared_in_a_comment`, `not_a_function()`,"
                                 " `solve_in_a_string()`\n")
        self.assertEqual(len(self.problems()), 3)

    def test_enumerator_comment_is_not_an_enumerator(self):
        self.append("README.md", "\n`Op::Bogus`\n")
        self.assertEqual(len(self.problems()), 1)

    def test_names_in_template_arguments_are_checked(self):
        self.append("README.md", "\n`RXMesh::for_each<Op::XX>`\n")
        lines = self.problems()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("`XX` is not declared in `Op`", lines[0])

    def test_qualified_names_in_code_blocks(self):
        self.append("README.md", "\n```cpp\nrxmesh::CgOptions opt;\nrxmesh::Nope n;\n```\n")
        n = self.readme_line("rxmesh::Nope")
        self.assertEqual(self.problems(), [
            "README.md:%d: unknown name `rxmesh::Nope`: `Nope` is not declared in `rxmesh`" % n])

    def test_plain_blocks_check_templates_and_calls(self):
        self.append("README.md", "\n```\nNope<T> and made_up() here\n```\n")
        lines = self.problems()
        self.assertEqual(len(lines), 2, lines)

    def test_allowed_name_only_in_its_section(self):
        # kernel<Op> and Iterator pass under "From the paper" (the clean tree), not elsewhere
        self.append("README.md", "\n## Queries\n\n`Iterator`\n\n```\nkernel<Op>\n```\n")
        lines = self.problems()
        self.assertEqual(len(lines), 2, lines)
        self.assertIn("unknown name `Iterator`", lines[0])
        self.assertIn("unknown name `kernel<Op>`", lines[1])

    def test_external_names_are_not_checked(self):
        self.append("README.md", "\n`std::made_up`, `cub::DeviceNope`, `thrust::zzz`\n")
        self.assert_clean()


class MentionTest(TreeTestCase):
    def test_new_app_must_be_named(self):
        self.write("apps/extra/extra.cu", "int main() { return 0; }\n")
        n = self.readme_line("## Layout")
        self.assertEqual(self.problems(), [
            "README.md:%d: the app folder `apps/extra` is named nowhere in README.md (list it in "
            "the Layout section)" % n])

    def test_new_algorithm_header_must_be_named(self):
        self.write("include/rxmesh/algo/extra.cuh", "#pragma once\n")
        lines = self.problems()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("the algorithm header `include/rxmesh/algo/extra.cuh` is named nowhere",
                      lines[0])

    def test_mentions_only_of_the_readme(self):
        self.write("include/rxmesh/algo/extra.cuh", "#pragma once\n")
        self.assert_clean("ARCHITECTURE.md")


class IndexTest(unittest.TestCase):
    """The declaration patterns, on their own."""

    def index(self, code):
        idx = check_docs.CodeIndex()
        idx.add_file("x.h", textwrap.dedent(code))
        return idx

    def test_strip_code_keeps_lines_and_drops_literals(self):
        text = 'a = "b // c"; // d\n/* e\nf */ g = \'"\'; h = 1\'000;\n'
        self.assertEqual(check_docs.strip_code(text), 'a = ""; \n\n g = \'\'; h = 1\'000;\n')

    def test_declaration_kinds(self):
        idx = self.index("""\
            namespace a::b {
            template <class T, typename U = int>
            struct S : Base
            {
                int x = 0, y;
                static constexpr int kMax = 3;
                T& operator()(int k) const;
                void f(int z);
            };
            class Fwd;
            enum E { One, Two = 2 };
            using Alias = S<int>;
            std::vector<int> make_list(int n);
            }
            void S::g() {}
            """)
        self.assertEqual(set(idx.types), {"S", "E", "Alias"})
        self.assertEqual(idx.forward, {"Fwd"})
        self.assertEqual(idx.enums["E"], {"One", "Two"})
        self.assertEqual(set(idx.namespaces), {"a", "b"})
        self.assertTrue({"f", "make_list", "g"} <= set(idx.functions))
        self.assertTrue({"x", "y", "kMax"} <= set(idx.variables))
        self.assertNotIn("T", idx.types)  # a template parameter
        self.assertIn(("S", "g"), idx.qualified)
        self.assertIsNone(idx.check_chain("a::S::f"))
        self.assertIsNone(idx.check_chain("b::E::Two"))
        self.assertEqual(idx.check_chain("S::h"), "`h` is not declared in `S`")


if __name__ == "__main__":
    unittest.main(verbosity=2)
