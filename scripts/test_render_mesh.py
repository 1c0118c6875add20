#!/usr/bin/env python3
"""Self-test of scripts/render_mesh.py's readers and its error policy
(standard library only; the picture itself needs matplotlib and is not
drawn here): OBJ polygons fanned, negative indices, OFF, bad input as one
line on stderr and exit status 1, never a traceback."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import render_mesh  # noqa: E402

SCRIPT = os.path.join(HERE, "render_mesh.py")


class ReadersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="render_mesh_test_")

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_obj_polygon_is_fanned_and_negative_indices_count_back(self):
        path = self.write("q.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2//2 3/3/3 4\nf -4 -3 -1\n")
        verts, faces, extra = render_mesh.read_mesh(path)
        self.assertEqual(len(verts), 4)
        self.assertEqual(faces, [(0, 1, 2), (0, 2, 3), (0, 1, 3)])
        self.assertEqual(extra, {})

    def test_off_triangles(self):
        path = self.write("t.off", "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n")
        verts, faces, _ = render_mesh.read_mesh(path)
        self.assertEqual(faces, [(0, 1, 2), (0, 2, 3)])

    def run_script(self, *meshes):
        proc = subprocess.run([sys.executable, SCRIPT, os.path.join(self.dir, "out.png"), *meshes],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return proc.returncode, proc.stderr

    def expect_bad_input(self, mesh, says):
        rc, err = self.run_script(mesh)
        self.assertEqual(rc, 1, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(says, err)
        self.assertNotIn("Traceback", err)

    def test_bad_inputs_are_one_line_and_status_1(self):
        self.expect_bad_input(self.write("bad.obj", "v 0 0 0\nf 1 2 3\n"), "bad.obj:2: a face with a bad vertex index")
        self.expect_bad_input(os.path.join(self.dir, "missing.off"), "missing.off")
        self.expect_bad_input(self.write("m.stl", "solid x\n"), "m.stl: not a mesh this script reads")
        self.expect_bad_input(self.write("n.off", "NOFF?\n"), "n.off: not an OFF file")


if __name__ == "__main__":
    unittest.main()
