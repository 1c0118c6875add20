"""Markers: cpu tests run anywhere; gpu tests need a CUDA device (they skip
with "no CUDA device: GPU test skipped" unless RXMESH_REQUIRE_GPU=1)."""
import os
import subprocess

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "cpu: runs without a GPU")
    config.addinivalue_line("markers", "gpu: needs a CUDA device")


def gpu_available():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
        return out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.fixture
def gpu():
    if not gpu_available():
        if os.environ.get("RXMESH_REQUIRE_GPU") == "1":
            pytest.fail("RXMESH_REQUIRE_GPU=1 but no CUDA device is usable")
        print("no CUDA device: GPU test skipped")
        pytest.skip("no CUDA device: GPU test skipped")
