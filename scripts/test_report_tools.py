#!/usr/bin/env python3
"""Self-test of the two summarisers that published figures go through:
app_report_times.py (an app's --json report, one line) and ncu_summary.py
(an `ncu --csv` report with the program's own output mixed in)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import app_report_times  # noqa: E402
import ncu_summary  # noqa: E402

NCU_CSV = '''==PROF== Connected to process 1 (bench)
| version | ms |
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","1","bench","h","void k<256>(int)","1","7","(256, 1, 1)","(572, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","ns","19,104"
"0","1","bench","h","void k<256>(int)","1","7","(256, 1, 1)","(572, 1, 1)","0","9.0","Occupancy","Achieved Occupancy","%","40.81"
"1","1","bench","h","pde(const float *)","1","7","(128, 1, 1)","(407, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","ns","16,736"
==PROF== Disconnected from process 1
'''


class AppReportTimesTest(unittest.TestCase):
    def test_stages_waits_and_build_in_order(self):
        report = {"times_ms": {"import": 106.16, "build": 55.85, "solve": 22.78},
                  "gpu_start_wait_ms": 106.7, "output_early_ms": 28.4, "export_ms": 20.2,
                  "output_ms": 71.25, "release_ms": 0.1, "wall_ms": 365.4,
                  "build": {"build_ms": {"upload": 18.7, "total": 55.8}}}
        self.assertEqual(app_report_times.line(report),
                         "times_ms import=106.2 build=55.9 solve=22.8; gpu_start_wait_ms=106.7; "
                         "output_early_ms=28.4; export_ms=20.2; output_ms=71.2; release_ms=0.1; "
                         "wall_ms=365.4; build_ms upload=18.7 total=55.8")

    def test_a_report_without_the_new_keys_gives_its_stages_alone(self):
        self.assertEqual(app_report_times.line({"times_ms": {"import": 1.0}, "wall_ms": 2.0}),
                         "times_ms import=1.0; wall_ms=2.0")


class NcuSummaryTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(NCU_CSV)

    def tearDown(self):
        os.remove(self.path)

    def test_launches_gather_their_metrics_and_skip_program_output(self):
        rows = ncu_summary.launches(self.path)
        self.assertEqual(sorted(rows), [0, 1])
        self.assertEqual(rows[0]["kernel"], "void k<256>(int)")
        self.assertEqual(rows[0]["block"], "(256, 1, 1)")
        self.assertEqual(rows[0]["Duration"], ("19,104", "ns"))
        self.assertEqual(rows[0]["Achieved Occupancy"], ("40.81", "%"))
        self.assertNotIn("Achieved Occupancy", rows[1])

    def test_name_filter_keeps_matching_launches(self):
        out = subprocess.run([sys.executable, os.path.join(HERE, "ncu_summary.py"), self.path,
                              "pde"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(len(out.splitlines()), 1)
        self.assertTrue(out.startswith("1 | pde(const float *) | block (128, 1, 1) grid (407, 1, 1)"))
        self.assertIn("duration=16,736ns", out)


if __name__ == "__main__":
    unittest.main()
