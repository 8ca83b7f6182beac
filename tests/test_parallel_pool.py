"""kiln's thread pool (src/parallel/pool.c) and Numba's thread API (kiln/_threads.py,
lib/threads.def).

The pool is tested without compiled code through ``kiln._core._pool_probe``, a region over a C
body that records each chunk as (lo, hi, tid, thread_id, num_threads, chunksize, nested): the
chunk's bounds and region tid, what the thread running it sees, and the check of a region
started inside it. Tests that need a given pool size, environment variables or fork run in a
subprocess; the others hold for any pool size (1 included). The thread API's oracle is the
same function run by the interpreter (``f.py_func``), whose calls go to the Python API."""

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import kiln
from kiln import _core

N = kiln.config.NUMBA_NUM_THREADS
LO, HI, TID, THREAD, NTHREADS, CHUNK, NESTED = range(7)
TUNING = 6  # kiln/_threads.py's op code


@pytest.fixture
def every_region_parallel():
    """No small-work guard: every region of 2+ iterations uses the pool (restored after)."""
    _core._threads(TUNING, -1, 0)
    yield
    _core._threads(TUNING, -1, int(os.environ.get("KILN_PAR_MIN_NS", "4000")))


@pytest.fixture(autouse=True)
def thread_settings():
    """Each test starts and ends with this thread's defaults."""
    yield
    kiln.set_num_threads(N)
    kiln.set_parallel_chunksize(0)


def probe(n, chunk=0, fail_at=-1, status=1, work_ns=0, nested=False):
    return _core._pool_probe(n, chunk, fail_at, status, work_ns, nested)


def covered_once(recs, n):
    hits = np.zeros(n, dtype=np.int64)
    for r in recs:
        assert r[LO] < r[HI]  # never an empty chunk
        hits[r[LO]:r[HI]] += 1
    return bool((hits == 1).all())


def shares(n, k):
    """The static shares of [0, n) over k threads: the remainder on the first ones."""
    q, r = divmod(n, k)
    out, lo = [], 0
    for t in range(k):
        hi = lo + q + (t < r)
        if hi > lo:
            out.append((lo, hi, t))
        lo = hi
    return out


def run_script(code, **env):
    full = dict(os.environ)
    for k in ("KILN_NUM_THREADS", "NUMBA_NUM_THREADS", "KILN_PAR_MIN_NS"):
        full.pop(k, None)
    full.update(env)
    r = subprocess.run([sys.executable, "-P", "-c", textwrap.dedent(code)], env=full,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.strip().splitlines()


# ---- the Python API -------------------------------------------------------------------------

def test_defaults():
    default = len(os.sched_getaffinity(0))
    assert kiln.config.NUMBA_DEFAULT_NUM_THREADS == default
    env = os.environ.get("KILN_NUM_THREADS") or os.environ.get("NUMBA_NUM_THREADS")
    assert N == (int(env) if env else default)
    assert kiln.get_num_threads() == N
    assert kiln.get_thread_id() == 0
    assert kiln.get_parallel_chunksize() == 0
    assert kiln.threading_layer() == "kiln"  # before and after any region
    probe(10)
    assert kiln.threading_layer() == "kiln"
    assert kiln.config.THREADING_LAYER == "kiln"


def test_set_num_threads():
    kiln.set_num_threads(1)
    assert kiln.get_num_threads() == 1
    kiln.set_num_threads(np.int32(N))
    assert kiln.get_num_threads() == N


@pytest.mark.parametrize("bad", [0, -1, N + 1, 10**6])
def test_set_num_threads_out_of_range(bad):
    with pytest.raises(ValueError, match=f"^The number of threads must be between 1 and {N}$"):
        kiln.set_num_threads(bad)
    assert kiln.get_num_threads() == N


@pytest.mark.parametrize("bad", [1.0, "2", None, np.float64(2)])
def test_set_num_threads_not_integer(bad):
    with pytest.raises(TypeError, match="^The number of threads specified must be an integer$"):
        kiln.set_num_threads(bad)


def test_num_threads_per_thread():
    kiln.set_num_threads(1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(kiln.get_num_threads()))
    t.start()
    t.join()
    assert seen == [N]  # another thread keeps the default
    assert kiln.get_num_threads() == 1

    def other():
        kiln.set_num_threads(1)
        seen.append(kiln.get_num_threads())

    kiln.set_num_threads(N)
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen[-1] == 1 and kiln.get_num_threads() == N


def test_chunksize():
    assert kiln.set_parallel_chunksize(8) == 0
    assert kiln.get_parallel_chunksize() == 8
    assert kiln.set_parallel_chunksize(np.int64(3)) == 8
    with kiln.parallel_chunksize(5):
        assert kiln.get_parallel_chunksize() == 5
    assert kiln.get_parallel_chunksize() == 3
    with pytest.raises(ValueError, match="^chunksize must be greater than or equal to zero$"):
        kiln.set_parallel_chunksize(-1)
    with pytest.raises(TypeError, match="^The parallel chunksize must be an integer$"):
        kiln.set_parallel_chunksize(2.5)
    assert kiln.get_parallel_chunksize() == 3


# ---- the thread API in compiled code ----------------------------------------------------------

@kiln.njit
def api_in_compiled_code(n, c):
    before = kiln.get_num_threads()
    kiln.set_num_threads(n)
    after = kiln.get_num_threads()
    old = kiln.set_parallel_chunksize(c)
    now = kiln.get_parallel_chunksize()
    kiln.set_parallel_chunksize(old)
    return before, after, old, now, kiln.get_parallel_chunksize(), kiln.get_thread_id()


def test_compiled_api_matches_python():
    for n, c in [(1, 4), (N, 0), (max(1, N // 2), 100)]:
        got = api_in_compiled_code(n, c)
        kiln.set_num_threads(N)
        want = api_in_compiled_code.py_func(n, c)
        kiln.set_num_threads(N)
        assert got == want


def test_compiled_api_sets_the_callers_thread():
    api_in_compiled_code(1, 7)
    assert kiln.get_num_threads() == 1  # compiled and Python code share the setting


@pytest.mark.parametrize("n, c", [(0, 1), (N + 1, 1), (1, -1)])
def test_compiled_api_errors(n, c):
    with pytest.raises(ValueError) as want:
        api_in_compiled_code.py_func(n, c)
    kiln.set_num_threads(N)
    with pytest.raises(ValueError) as got:
        api_in_compiled_code(n, c)
    assert str(got.value) == str(want.value)


def test_compiled_api_typing_errors():
    @kiln.njit
    def set_float(x):
        kiln.set_num_threads(x)

    with pytest.raises(kiln.errors.TypingError,
                       match="The number of threads specified must be an integer"):
        set_float(1.5)

    @kiln.njit
    def chunk_bool(x):
        return kiln.set_parallel_chunksize(x)

    with pytest.raises(kiln.errors.TypingError, match="The parallel chunksize must be an integer"):
        chunk_bool(True)

    @kiln.njit
    def extra():
        return kiln.get_num_threads(1)

    with pytest.raises(kiln.errors.TypingError, match="takes no arguments"):
        extra()


@kiln.njit(nogil=True)
def set_then_get(n):
    kiln.set_num_threads(n)
    return kiln.get_num_threads()


def test_compiled_api_per_thread_from_8_threads():
    got = {}

    def run(i):
        got[i] = [set_then_get(1 + (i + k) % N) for k in range(50)]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {i: [1 + (i + k) % N for k in range(50)] for i in range(8)}
    assert kiln.get_num_threads() == N


def test_numba_names_in_compiled_code():
    numba = pytest.importorskip("numba")

    @kiln.njit
    def f():
        numba.set_num_threads(1)
        return numba.get_num_threads(), numba.get_thread_id(), numba.get_parallel_chunksize()

    assert f() == (1, 0, 0)
    assert kiln.get_num_threads() == 1


# ---- regions --------------------------------------------------------------------------------

SIZES = [1, 2, 3, 7, 64, 1000, 4097]


@pytest.mark.parametrize("n", SIZES)
def test_static_shares(n, every_region_parallel):
    st, failed, recs = probe(n)
    assert (st, failed) == (0, -1)
    assert covered_once(recs, n)
    k = kiln.get_num_threads() if n > 1 else 1
    assert sorted(r[:3] for r in recs) == shares(n, k)
    for r in recs:
        assert r[THREAD] == r[TID]  # tid t runs on the pool's thread t
        assert r[NTHREADS] == kiln.get_num_threads()
        assert r[CHUNK] == 0


@pytest.mark.parametrize("n", SIZES)
def test_static_shares_with_fewer_threads(n, every_region_parallel):
    kiln.set_num_threads(1)
    assert sorted(r[:3] for r in probe(n)[2]) == [(0, n, 0)]
    kiln.set_num_threads(max(1, N - 1))
    k = kiln.get_num_threads() if n > 1 else 1
    assert sorted(r[:3] for r in probe(n)[2]) == shares(n, k)


@pytest.mark.parametrize("n, chunk", [(1000, 1), (1000, 7), (1000, 999), (1000, 5000), (5, 2)])
def test_dynamic_chunks(n, chunk, every_region_parallel):
    st, failed, recs = probe(n, chunk)
    assert st == 0 and covered_once(recs, n)
    assert len(recs) == max(1, n // chunk)  # Numba's count: n // chunksize near-equal chunks
    sizes = {r[HI] - r[LO] for r in recs}
    assert max(sizes) - min(sizes) <= 1
    assert all(0 <= r[TID] < kiln.get_num_threads() for r in recs)


def test_chunksize_setting_is_the_default(every_region_parallel):
    kiln.set_parallel_chunksize(100)
    st, _, recs = probe(1000)
    assert st == 0 and covered_once(recs, 1000) and len(recs) == 10
    assert all(r[CHUNK] == 0 for r in recs)  # Numba: 0 inside a region
    assert kiln.get_parallel_chunksize() == 100  # restored after it
    st, _, recs = probe(1000, -1)  # chunk < 0: static whatever the setting
    assert len(recs) == min(kiln.get_num_threads(), 1000)


def test_empty_region():
    assert probe(0) == (0, -1, [])


@pytest.mark.parametrize("chunk", [0, 3])
def test_failing_chunk(chunk, every_region_parallel):
    for fail_at in (0, 499, 999):
        st, failed, recs = probe(1000, chunk, fail_at, 7)
        assert st == 7
        tids = {r[TID] for r in recs if r[LO] <= fail_at < r[HI]}
        assert tids == {failed}
        hits = sum(r[HI] - r[LO] for r in recs)
        assert hits <= 1000


def test_failure_skips_remaining_chunks(every_region_parallel):
    st, failed, recs = probe(200, 1, 0, 3, work_ns=200_000)
    assert st == 3 and 0 <= failed < kiln.get_num_threads()
    assert len(recs) < 200


def test_nested_region_inline(every_region_parallel):
    st, _, recs = probe(100, 0, -1, 1, 0, True)
    assert st == 0 and covered_once(recs, 100)
    assert all(r[NESTED] == 11 for r in recs)  # region size 1 inside, one call with tid 0


@pytest.fixture
def huge_guard():
    """Every region whose body has been measured once counts as too small (restored after)."""
    _core._threads(TUNING, -1, 10**9)
    yield
    _core._threads(TUNING, -1, int(os.environ.get("KILN_PAR_MIN_NS", "4000")))


def test_small_work_runs_inline_with_the_same_shares(huge_guard):
    n = 1000
    probe(n)  # measured
    st, _, recs = probe(n)
    assert sorted(r[:3] for r in recs) == shares(n, kiln.get_num_threads())
    assert all(r[THREAD] == 0 for r in recs)  # all on this thread


def test_concurrent_regions_from_8_threads(every_region_parallel):
    errors = []

    def hammer(i):
        try:
            if i % 2:
                kiln.set_num_threads(1)
            for k in range(60):
                n = 1 + (k * 37 + i * 11) % 3000
                st, _, recs = probe(n, 7 if k % 3 == 0 else 0, -1, 1, 1000 if k % 5 == 0 else 0,
                                    k % 4 == 0)
                assert st == 0 and covered_once(recs, n)
                if k % 4 == 0:
                    assert all(r[NESTED] == 11 for r in recs)
            assert kiln.get_num_threads() == (1 if i % 2 else N)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a region deadlocked"
    assert not errors, errors


def test_region_releases_the_gil(every_region_parallel):
    if N < 2:
        pytest.skip("one thread: regions run inline")
    started, counter = threading.Event(), [0]

    def region():
        started.set()
        probe(4, 0, -1, 1, 100_000_000)  # 4 iterations of 0.1 s

    t = threading.Thread(target=region)
    t.start()
    started.wait()
    while t.is_alive():
        counter[0] += 1
    t.join()
    assert counter[0] > 0


# ---- environment and fork (subprocesses) ------------------------------------------------------

SEES = """
import kiln, kiln._core as c
c._threads(6, -1, 0)
recs = c._pool_probe(400, 0, -1, 1, 20000)[2]
print(kiln.config.NUMBA_NUM_THREADS, kiln.get_num_threads(), sorted({r[3] for r in recs}))
"""


@pytest.mark.parametrize("env, want", [
    ({"KILN_NUM_THREADS": "4"}, 4),
    ({"NUMBA_NUM_THREADS": "3"}, 3),
    ({"KILN_NUM_THREADS": "2", "NUMBA_NUM_THREADS": "5"}, 2),
    ({"KILN_NUM_THREADS": "1"}, 1),
])
def test_thread_count_from_environment(env, want):
    assert run_script(SEES, **env) == [f"{want} {want} {list(range(want))}"]


def test_bad_environment_value_is_ignored():
    out = run_script("""
        import warnings
        warnings.simplefilter("always")
        with warnings.catch_warnings(record=True) as w:
            import kiln
        import os
        print(kiln.config.NUMBA_NUM_THREADS == len(os.sched_getaffinity(0)), kiln.get_num_threads()
              == kiln.config.NUMBA_NUM_THREADS, any("KILN_NUM_THREADS" in str(x.message) for x in w))
    """, KILN_NUM_THREADS="lots")
    assert out == ["True True True"]


def test_out_of_range_message_names_the_pool_size():
    out = run_script("""
        import kiln
        try:
            kiln.set_num_threads(4)
        except ValueError as e:
            print(e)
    """, KILN_NUM_THREADS="3")
    assert out == ["The number of threads must be between 1 and 3"]


def test_fork_after_using_the_pool():
    out = run_script("""
        import os, kiln._core as c
        c._threads(6, -1, 0)
        def ran_on():
            st, _, recs = c._pool_probe(400, 0, -1, 1, 20000)
            assert st == 0 and sum(r[1] - r[0] for r in recs) == 400
            return sorted({r[3] for r in recs})
        print("parent", ran_on())
        pid = os.fork()
        if pid == 0:
            ok = ran_on() == [0, 1, 2, 3] and ran_on() == [0, 1, 2, 3]
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print("parent", ran_on())
    """, KILN_NUM_THREADS="4")
    assert out == ["parent [0, 1, 2, 3]", "child 0", "parent [0, 1, 2, 3]"]
