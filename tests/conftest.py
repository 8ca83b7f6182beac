"""Shared fixtures: a leak check around every test, and the ``gpu`` marker."""

import gc
import os
import sys

import pytest

# The KIR verifier runs after every compiler pass in the whole suite (src/compile.c reads this
# once, so it must be set before kiln compiles anything). KILN_VERIFY=0 in the environment
# turns it off, to measure what it costs.
os.environ.setdefault("KILN_VERIFY", "1")

import kiln  # noqa: E402

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


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so that the leak check knows a test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, "_kiln_report_" + report.when, report)


_state = {"dirty": False}


@pytest.fixture(autouse=True)
def no_leaks(request):
    """Runtime allocations and frees must balance over each test (kiln's NRT counters).

    When they do not, garbage is collected before judging, so an array that only a reference
    cycle keeps alive does not count (gc.collect costs ~5 ms, so only then). A test that failed
    is not blamed for a leak as well: its exception's traceback keeps its arrays alive; the next
    test drops that traceback and collects first, so it is not blamed either."""
    if _state["dirty"]:
        # pytest keeps the last failure for post-mortem debugging (sys.last_*): its frames
        # still hold the failed test's arrays
        for name in ("last_type", "last_value", "last_traceback", "last_exc"):
            if hasattr(sys, name):
                delattr(sys, name)
        gc.collect()
        _state["dirty"] = False
    before = _outstanding()
    yield
    call = getattr(request.node, "_kiln_report_call", None)
    if call is not None and call.failed:
        _state["dirty"] = True
        return
    after = _outstanding()
    if after != before:
        gc.collect()
        after = _outstanding()
    assert after == before, f"runtime memory leaked (allocated - freed): {before} -> {after}"
