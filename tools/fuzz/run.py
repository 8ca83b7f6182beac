"""The fuzzer's command line: generate, judge in worker processes, minimise, summarise.

    .venv/bin/python tools/fuzz/run.py --seed 1 --count 500 --out fuzz-out
    .venv/bin/python tools/fuzz/run.py --seed 1000 --time 600 --out fuzz-out   # ten minutes
    .venv/bin/python tools/fuzz/run.py --replay fuzz-out/failures/crash/s17.py
    .venv/bin/python tools/fuzz/run.py --minimise-saved fuzz-out --minimise-limit 50

Program ``k`` of a run is ``generate.program(seed + k)``, so a failure's seed reproduces it. A
failure is saved as ``OUT/failures/<kind>/s<seed>.py`` and, minimised, as
``OUT/repros/<kind>/s<seed>.py`` (runnable: ``.venv/bin/python -P OUT/repros/...``). The
summary groups failures by kind; ``OUT/summary.json`` holds the counts and every failure's
verdict. ``run(...)`` is the same as a function, for tests/test_fuzz_ci.py.
"""

import argparse
import collections
import json
import os
import shutil
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate  # noqa: E402
import minimise  # noqa: E402
from pool import Pool  # noqa: E402

PASSING = ("ok", "skip", "undefined")


class Run:
    """The state of one fuzzing run: counts, failures, the folders it writes."""

    def __init__(self, out):
        self.out = os.path.abspath(out)
        self.work = os.path.join(self.out, "work")
        os.makedirs(self.work, exist_ok=True)
        self.counts = collections.Counter()
        self.failures = []
        self.skips = collections.Counter()
        self.lock = threading.Lock()

    def program_path(self, seed):
        path = os.path.join(self.work, f"s{seed}.py")
        with open(path, "w") as fh:
            fh.write(generate.program(seed))
        return path

    def record(self, path, verdict):
        with self.lock:
            self.counts[verdict["kind"]] += 1
            if verdict["kind"] == "skip":
                reason = verdict["detail"].split(":")[1].strip() if ":" in verdict["detail"] else ""
                self.skips[" ".join(reason.split()[:4])] += 1
            if verdict["kind"] in PASSING:
                os.remove(path)
                return
            folder = os.path.join(self.out, "failures", verdict["kind"])
            os.makedirs(folder, exist_ok=True)
            dest = os.path.join(folder, os.path.basename(path))
            shutil.move(path, dest)
            self.failures.append({"seed": seed_of(path), "path": dest, **verdict})


def seed_of(path):
    return int(os.path.basename(path)[1:].split(".")[0].split("_")[0])


def fuzz(pool, state, seed, count, seconds):
    deadline = time.monotonic() + seconds if seconds else None

    def jobs():
        k = 0
        while count is None or k < count:
            yield state.program_path(seed + k)
            k += 1

    stop = (lambda: time.monotonic() > deadline) if deadline else (lambda: False)
    pool.judge_many(jobs(), state.record, stop)


def minimise_failure(pool, state, failure, budget):
    """Shrink one saved failure; the repro keeps the failure's kind."""
    with open(failure["path"]) as fh:
        source = fh.read()
    tries = [0]

    def still_fails(text):
        tries[0] += 1
        path = os.path.join(state.work, f"s{failure['seed']}_{tries[0]}.py")
        with open(path, "w") as fh:
            fh.write(text)
        verdict = pool.judge(path)
        os.remove(path)
        return verdict["kind"] == failure["kind"] and same_exceptions(verdict, failure)

    small = minimise.minimise(source, still_fails, budget)
    folder = os.path.join(state.out, "repros", failure["kind"])
    os.makedirs(folder, exist_ok=True)
    dest = os.path.join(folder, f"s{failure['seed']}.py")
    with open(dest, "w") as fh:
        fh.write(minimise.repro(small, failure))
    failure["repro"] = dest
    failure["repro_source"] = small
    return small


def signature(failure):
    """What tells failures apart before minimising: kind, exception classes, first words."""
    words = [w for w in failure["detail"].split()[:6] if not any(ch.isdigit() for ch in w)
             and "/" not in w]
    return (failure["kind"], tuple(exception_names(failure["detail"])), tuple(words[:4]))


def diverse(failures, limit):
    """Up to ``limit`` failures, one of each signature in turn, so that minimising a long run
    covers every kind of failure rather than the first ones found."""
    groups = collections.defaultdict(list)
    for f in failures:
        groups[signature(f)].append(f)
    picked = []
    while len(picked) < limit and any(groups.values()):
        for key in list(groups):
            if groups[key] and len(picked) < limit:
                picked.append(groups[key].pop(0))
    return picked


def exception_names(detail):
    return [w.rstrip(":;") for w in detail.split() if w.rstrip(":;").endswith(("Error",
                                                                                 "Exception"))]


def same_exceptions(a, b):
    """Minimising keeps the exception classes a failure names (kiln's and Python's)."""
    return exception_names(a["detail"])[:2] == exception_names(b["detail"])[:2]


def run(seed=1, count=None, seconds=None, out="fuzz-out", workers=2, minimise_budget=150,
        minimise_limit=20, timeout=60.0, quiet=False):
    """Fuzz, minimise up to ``minimise_limit`` failures, write the summary; return it."""
    state = Run(out)
    pool = Pool(workers, timeout=timeout)
    start = time.monotonic()
    try:
        fuzz(pool, state, seed, count, seconds)
        summary = {"seed": seed, "programs": sum(state.counts.values()),
                   "seconds": round(time.monotonic() - start), "counts": dict(state.counts),
                   "failures": state.failures, "skip_reasons": dict(state.skips.most_common(30))}
        write_summary(state.out, summary)  # before minimising, which can take long
        if minimise_budget:
            # a timeout costs --timeout seconds a try: those are left as they are
            shrinkable = [f for f in state.failures if f["kind"] != "timeout"]
            for failure in diverse(shrinkable, minimise_limit):
                minimise_failure(pool, state, failure, minimise_budget)
    finally:
        pool.close()
    write_summary(state.out, summary)
    if not quiet:
        print(report(summary))
    return summary


def write_summary(out, summary):
    with open(os.path.join(out, "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)


def report(summary):
    """The summary as text: counts, then the failures grouped by kind."""
    c = summary["counts"]
    lines = [f"{summary['programs']} programs in {summary['seconds']} s from seed "
             f"{summary['seed']}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()))]
    by_kind = collections.defaultdict(list)
    for f in summary["failures"]:
        by_kind[f["kind"]].append(f)
    for kind, items in sorted(by_kind.items()):
        lines.append(f"\n== {kind}: {len(items)}")
        for f in items:
            first = f["detail"].strip().splitlines()[0] if f["detail"].strip() else ""
            lines.append(f"  seed {f['seed']}: {first[:160]}")
            lines.append(f"    {f.get('repro', f['path'])}")
    return "\n".join(lines)


def minimise_saved(out, budget, limit, workers=2):
    """Minimise the failures of a finished run again (``--minimise-saved OUT``)."""
    with open(os.path.join(out, "summary.json")) as fh:
        summary = json.load(fh)
    state = Run(out)
    pool = Pool(workers)
    try:
        todo = [f for f in summary["failures"] if "repro" not in f and f["kind"] != "timeout"]
        for failure in diverse(todo, limit):
            minimise_failure(pool, state, failure, budget)
    finally:
        pool.close()
    write_summary(out, summary)
    print(report(summary))


def replay(path):
    pool = Pool(1)
    try:
        copy = os.path.join(os.path.dirname(os.path.abspath(path)),
                            f"replay_{os.getpid()}_{os.path.basename(path)}")
        shutil.copy(path, copy)
        verdict = pool.judge(copy)
        os.remove(copy)
    finally:
        pool.close()
    print(json.dumps(verdict, indent=1))
    return verdict


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1, help="seed of the first program")
    p.add_argument("--count", type=int, help="number of programs")
    p.add_argument("--time", type=float, help="seconds to fuzz (the default: 60 if no count)")
    p.add_argument("--out", default="fuzz-out", help="results folder")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per program")
    p.add_argument("--minimise", type=int, default=150, help="tries per failure (0: none)")
    p.add_argument("--minimise-limit", type=int, default=20, help="failures to minimise")
    p.add_argument("--replay", help="judge one saved program file and print its verdict")
    p.add_argument("--minimise-saved", metavar="OUT", help="minimise a finished run's failures")
    a = p.parse_args(argv)
    if a.minimise_saved:
        return minimise_saved(a.minimise_saved, a.minimise, a.minimise_limit, a.workers)
    if a.replay:
        return 0 if replay(a.replay)["kind"] in PASSING else 1
    seconds = a.time if a.time or a.count else 60.0
    summary = run(a.seed, a.count, seconds, a.out, a.workers, a.minimise, a.minimise_limit,
                  a.timeout)
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
