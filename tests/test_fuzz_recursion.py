"""Runaway recursion and Ctrl-C in compiled code (found by differential fuzzing, R18).

Recursive compiled functions check the thread's stack at entry and raise RecursionError
instead of running forever (LLVM had turned `return f(n + 1) + 1` into a loop) or crashing;
compiled `while` loops poll for SIGINT. CPython is the oracle for the results and for the
exception type; kiln's depth limit is the thread's stack, not sys.getrecursionlimit().
"""

import os
import select
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import numpy as np
import pytest

import kiln

def run_script(body, timeout=60):
    """Run `body` from a file (kiln compiles from source) in a fresh interpreter, so that a
    hang or a crash cannot take pytest with it; the timeout fails the test instead."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "script.py")
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(body))
        return subprocess.run([sys.executable, "-P", path], capture_output=True, text=True,
                              timeout=timeout, cwd=d)


R18 = """
    import kiln

    def f(n):
        if n < 0:
            return 0
        return f(n + 1) + 1
"""


def test_r18_repro_raises_recursion_error_without_hanging():
    proc = run_script(R18 + """
    try:
        f(1)
    except RecursionError:
        pass
    else:
        raise SystemExit("CPython: no RecursionError")
    expected = f(-5)
    f = kiln.njit(f)  # the global name now calls the compiled function
    assert f(-5) == expected == 0
    try:
        f(1)
    except RecursionError as e:
        assert "maximum recursion depth exceeded" in str(e), e
        print("ok")
    """, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# compiled functions refer to themselves by their global name; the py_ twins are the oracles


def py_r18(n):
    if n < 0:
        return 0
    return py_r18(n + 1) + 1


@kiln.njit
def r18(n):
    if n < 0:
        return 0
    return r18(n + 1) + 1


def py_depth(n):
    if n == 0:
        return 0
    return py_depth(n - 1) + 1


@kiln.njit
def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1


def py_fib(n):
    if n < 2:
        return n
    return py_fib(n - 1) + py_fib(n - 2)


@kiln.njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def test_r18_in_process_and_repeatable():
    with pytest.raises(RecursionError):
        py_r18(1)
    for _ in range(3):
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            r18(1)
    assert r18(-1) == py_r18(-1)


def test_tail_call_recursion_raises():
    # a pure tail call becomes a loop in LLVM; the limit grows by a few bytes per level
    @kiln.njit
    def up(n):
        if n < 0:
            return n
        return up(n + 1)

    with pytest.raises(RecursionError):
        up(0)
    assert up(-3) == -3


def test_deep_legal_recursion_works():
    # CPython's default limit (1000) rejects these depths; kiln's limit is the stack (documented)
    with pytest.raises(RecursionError):
        py_depth(10_000)
    assert depth(10_000) == 10_000
    assert depth(50_000) == 50_000
    assert depth(500) == py_depth(500)


def test_fib_still_correct():
    for n in (0, 1, 2, 3, 10, 20):
        assert fib(n) == py_fib(n)


def test_mutual_recursion_raises():
    @kiln.njit
    def is_even(n):
        if n == 0:
            return True
        return is_odd(n - 1)

    @kiln.njit
    def is_odd(n):
        if n == 0:
            return False
        return is_even(n - 1)

    def py_even(n):
        return n % 2 == 0

    assert is_even(10) == py_even(10)
    assert is_odd(7) is True
    assert is_even(20_000) is True
    with pytest.raises(RecursionError):
        is_even(-1)  # never reaches 0
    with pytest.raises(RecursionError):
        is_odd(-2)


def test_recursion_that_can_raise_otherwise():
    # a function with the status ABI (it divides) checks the stack the same way
    @kiln.njit
    def g(n, d):
        if n < 0:
            return 1 // d
        return g(n + 1, d) + 1

    with pytest.raises(RecursionError):
        g(1, 1)
    with pytest.raises(ZeroDivisionError):
        g(-1, 0)
    assert g(-1, 1) == 1


def test_recursion_with_arrays_does_not_leak():
    # the autouse leak fixture checks that every array made on the way down is freed
    @kiln.njit
    def walk(a, n):
        b = a + 1.0
        if n < 0:
            return b.sum()
        return walk(b, n + 1)

    a = np.zeros(4)
    with pytest.raises(RecursionError):
        walk(a, 1)
    assert walk(a, -1) == 4.0


def test_recursion_caller_not_recursive():
    # a non-recursive compiled caller of a recursive function gets the RecursionError
    @kiln.njit
    def outer(n):
        return r18(n) + 1

    assert outer(-1) == 1
    with pytest.raises(RecursionError):
        outer(1)


def test_recursion_in_small_thread_stack():
    r18(-1)
    depth(0)  # compiled in this thread
    out = {}

    def work():
        try:
            r18(1)
        except RecursionError as e:
            out["err"] = e
        out["d"] = depth(200)

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=work)
        t.start()
        t.join(60)
    finally:
        threading.stack_size(old)
    assert not t.is_alive()
    assert isinstance(out.get("err"), RecursionError)
    assert out["d"] == py_depth(200)


def test_small_thread_stack_does_not_crash_subprocess():
    # the smallest stacks threading allows: RecursionError, never a segfault
    proc = run_script(R18 + """
    import threading
    f = kiln.njit(f)
    f(-1)
    res = []
    def work():
        try:
            f(1)
        except RecursionError:
            res.append("recursion")
    for size in (64 * 1024, 128 * 1024, 1024 * 1024):
        threading.stack_size(size)
        t = threading.Thread(target=work)
        t.start()
        t.join()
    print(",".join(res))
    """, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "recursion,recursion,recursion"


def run_and_interrupt(body, timeout=30):
    """Run `body` in a fresh interpreter; once it prints "ready", wait 0.5 s and send it SIGINT
    from here (the child's own threads could not: compiled code holds the GIL). Returns
    (stdout after "ready", stderr, seconds from the signal to the child's exit)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "script.py")
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(body))
        proc = subprocess.Popen([sys.executable, "-P", path], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=d)
        try:
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            assert ready, "the child never got ready"
            line = proc.stdout.readline()
            assert line.strip() == "ready", line + proc.stderr.read()
            time.sleep(0.5)
            t0 = time.monotonic()
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=timeout)
            return out, err, time.monotonic() - t0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


SIGINT_LOOP = """
    import kiln

    @kiln.njit{opts}
    def spin(n):
        i = 0
        while n > 0:
            i += 1
            if i == 1_000_000_007:
                i = 0
        return i

    spin(0)  # compiled before the parent is told to send the signal
    print("ready", flush=True)
    try:
        spin(1)
    except KeyboardInterrupt:
        print("interrupted")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("opts", ["", "(nogil=True)"])
def test_sigint_interrupts_compiled_while_loop(opts):
    out, err, seconds = run_and_interrupt(SIGINT_LOOP.format(opts=opts))
    assert out.strip() == "interrupted", out + err
    assert seconds < 5.0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_interrupts_while_that_only_looks_counted():
    # `x -= 1` towards the bound, but x is a float: 1e300 - 1 is 1e300, so the loop never ends
    # and must still poll (counted loops, which do not, need signed ints: test_loop_polls.py)
    out, err, seconds = run_and_interrupt("""
    import kiln

    @kiln.njit
    def spin(x):
        while x > 0:
            x -= 1
        return x

    spin(-1.0)
    print("ready", flush=True)
    try:
        spin(1e300)
    except KeyboardInterrupt:
        print("interrupted")
    """)
    assert out.strip() == "interrupted", out + err
    assert seconds < 5.0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_passes_up_through_compiled_callers_and_recursion():
    # the loop runs in a recursive function with a status code, called from another one
    out, err, seconds = run_and_interrupt("""
    import numpy as np
    import kiln

    @kiln.njit
    def spin(a, depth):
        if depth > 0:
            return spin(a + 1.0, depth - 1)
        i = 0
        while a[0] > 0:
            i += 1
        return i

    @kiln.njit
    def outer(a):
        return spin(a, 3) + 1

    outer(np.full(2, -10.0))  # compiled; a[0] is -7 at the loop, which does not run
    print("ready", flush=True)
    try:
        outer(np.ones(2))
    except KeyboardInterrupt:
        print("interrupted", kiln.runtime.memory_stats()["mi_alloc"]
              - kiln.runtime.memory_stats()["mi_free"])
    """)
    assert out.split() == ["interrupted", "0"], out + err
    assert seconds < 5.0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_custom_python_handler_still_runs():
    # a Python handler installed before kiln runs; the exception it raises comes out
    out, err, _ = run_and_interrupt("""
    import signal
    class Stop(Exception):
        pass
    def handler(sig, frame):
        raise Stop()
    signal.signal(signal.SIGINT, handler)
    import kiln
    @kiln.njit
    def spin(n):
        i = 0
        while n > 0:
            i = (i + 1) % 1000
        return i
    spin(0)
    print("ready", flush=True)
    try:
        spin(1)
    except Stop:
        print("stopped")
    """)
    assert out.strip() == "stopped", out + err


def test_no_spurious_interrupt_after_sigint_handled_in_python():
    # a SIGINT that Python already turned into KeyboardInterrupt must not stop a later call
    @kiln.njit
    def count(n):
        i = 0
        while i < n:
            i += 1
        return i

    got = None
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        got = "ki"
    assert got == "ki"
    assert count(1000) == 1000
