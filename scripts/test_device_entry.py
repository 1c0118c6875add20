#!/usr/bin/env python3
"""Tests of scripts/device.sh, the one entry point for GPU-machine work
(unittest, standard library only; no GPU needed: only the dispatch and the
help are run).

    python3 scripts/test_device_entry.py
"""

import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENTRY = os.path.join(HERE, "device.sh")
PARTS = os.path.join(HERE, "device")


def run(*args):
    return subprocess.run(["bash", ENTRY, *args], capture_output=True, text=True, cwd=ROOT)


def listed_commands():
    text = open(ENTRY).read()
    return re.search(r'^commands="([^"]*)"', text, re.M).group(1).split()


def ncu_presets():
    return sorted(f[:-3] for f in os.listdir(os.path.join(PARTS, "ncu")) if f.endswith(".sh"))


class DeviceEntry(unittest.TestCase):
    def test_every_command_has_its_file_and_help(self):
        for command in listed_commands():
            part = "ncu/groups" if command == "ncu" else command.replace("-", "_")
            self.assertTrue(os.path.isfile(os.path.join(PARTS, part + ".sh")), command)
            r = run("help", command)
            self.assertEqual(r.returncode, 0, command)
            self.assertIn("usage", r.stdout.lower(), command)

    def test_every_part_is_reached_by_a_command(self):
        """No batch that the entry point cannot run (env.sh is the library)."""
        commands = {c.replace("-", "_") for c in listed_commands()}
        for f in os.listdir(PARTS):
            if f.endswith(".sh") and f != "env.sh":
                self.assertIn(f[:-3], commands, f + " is not a command of device.sh")
        self.assertEqual(
            sorted(f for f in os.listdir(HERE) if f.startswith("device_")), [],
            "one-off device_*.sh batches are back: make them device.sh commands")

    def test_the_top_help_names_every_command_and_preset(self):
        r = run("help")
        self.assertEqual(r.returncode, 0)
        for command in listed_commands():
            self.assertRegex(r.stdout, r"(?m)^  " + re.escape(command) + r"\b", command)
        for preset in ncu_presets():
            self.assertIn(preset, r.stdout, preset)

    def test_unknown_command_and_missing_preset_exit_2(self):
        r = run("no-such-command")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no command 'no-such-command'", r.stderr)
        r = run("ncu")
        self.assertEqual(r.returncode, 2)
        self.assertIn("name a preset", r.stderr)
        r = run("ncu", "no-such-preset")
        self.assertEqual(r.returncode, 2)

    def test_every_part_parses(self):
        for dirpath, _, files in os.walk(PARTS):
            for f in files:
                if f.endswith(".sh"):
                    path = os.path.join(dirpath, f)
                    r = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, path + ": " + r.stderr)


if __name__ == "__main__":
    unittest.main()
