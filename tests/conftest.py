"""Shared fixtures: a leak check around every test, and the ``gpu`` marker."""

import os
import sys

import pytest

import kiln

# Let test modules `import harness` wherever pytest is started from.
sys.path.insert(0, os.path.dirname(__file__))


def _has_gpu():
    """True when the machine has an NVIDIA device node (a CUDA-capable accelerator)."""
    return os.path.exists("/dev/nvidiactl") or os.path.exists("/dev/nvidia0")


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: launches GPU kernels; skipped without a device")


def pytest_collection_modifyitems(config, items):
    if _has_gpu():
        return
    skip = pytest.mark.skip(reason="no GPU device on this machine")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def _outstanding():
    stats = kiln.runtime.memory_stats()
    pairs = [("alloc", "free"), ("mi_alloc", "mi_free")]
    return {a: stats[a] - stats[f] for a, f in pairs if a in stats and f in stats}


@pytest.fixture(autouse=True)
def no_leaks():
    """Runtime allocations and frees must balance over each test (kiln's NRT counters)."""
    before = _outstanding()
    yield
    after = _outstanding()
    assert after == before, f"runtime memory leaked (allocated - freed): {before} -> {after}"
