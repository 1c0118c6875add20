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

RAW_HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
              '"Block Size","Grid Size","Device","CC","gpu__time_duration.sum",'
              '"smsp__average_warp_latency_per_inst_issued.ratio",'
              '"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",'
              '"smsp__inst_executed.sum","smsp__warps_launched.sum"')
RAW_CSV = "\n".join([
    "==PROF== Connected to process 1 (bench)",
    RAW_HEADER,
    '"","","","","","","","","","","","usecond","cycle","inst","inst","warp"',
    '"0","1","b","h","void rxmesh::detail::for_each_kernel<(rxmesh::Op)4, 256, W>(M)","1","7",'
    '"(256, 1, 1)","(100, 1, 1)","0","9.0","9.10","30.0","20.0","1,000","10"',
    '"1","1","b","h","void rxmesh::detail::for_each_kernel<(rxmesh::Op)4, 256, W>(M)","1","7",'
    '"(256, 1, 1)","(100, 1, 1)","0","9.0","3.20","25.5","18.0","4,000","100"',
    '"2","1","b","h","baselines::<unnamed>::ef_query(unsigned int, A)","1","7",'
    '"(256, 1, 1)","(310, 1, 1)","0","9.0","1.60","12.0","8.0","2,000","80"',
    "| a table the program printed |",
    ""])


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


class CsvReportTest(unittest.TestCase):
    """A test over one report, written to a temporary file (REPORT)."""
    REPORT = ""

    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(self.REPORT)

    def tearDown(self):
        os.remove(self.path)


class NcuSummaryTest(CsvReportTest):
    REPORT = NCU_CSV

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


class NcuRawSummaryTest(CsvReportTest):
    REPORT = RAW_CSV

    def test_raw_launches_read_values_and_units(self):
        rows = ncu_summary.raw_launches(self.path)
        self.assertEqual([i for i, _ in rows], [0, 1, 2])
        self.assertEqual(rows[1][1]["gpu__time_duration.sum"], ("3.20", "usecond"))
        self.assertEqual(rows[2][1]["smsp__warps_launched.sum"], ("80", "warp"))

    def test_table_keeps_the_last_launch_of_each_kernel_and_block(self):
        lines = ncu_summary.raw_table(self.path).splitlines()
        self.assertEqual(len(lines), 4)  # header, rule, two kernels
        rx = lines[2].split(" | ")
        self.assertEqual(rx[0], "| 1")  # launch 1, not launch 0
        self.assertEqual(rx[1], "detail::for_each_kernel<(Op)4, 256, W>(M)")
        self.assertIn("3.20 usecond", lines[2])
        self.assertIn("18.0", lines[2])  # the long-scoreboard column found by its pattern
        # 4000 instructions over 100 warps, at 25.5 cycles per issue
        self.assertTrue(lines[2].endswith("| 40 | 1020 |"))
        self.assertTrue(lines[3].startswith(
            "| 2 | baselines::ef_query(unsigned int, A) | (256, 1, 1) | (310, 1, 1) | 1.60"))
        self.assertTrue(lines[3].endswith("| 25 | 300 |"))  # 2000 / 80 = 25, x 12

    def test_name_filter_and_cli(self):
        out = subprocess.run([sys.executable, os.path.join(HERE, "ncu_summary.py"), "--raw",
                              self.path, "ef_query"], capture_output=True, text=True,
                             check=True).stdout
        self.assertEqual(len(out.splitlines()), 3)
        self.assertIn("baselines::ef_query", out)


if __name__ == "__main__":
    unittest.main()
