"""Worker processes that judge program files, surviving crashes and hangs.

``Pool(n)`` starts ``n`` workers (worker.py). ``pool.judge(path)`` sends a path to a free
worker and waits for its verdict, at most ``timeout`` seconds: a worker that dies is reported
as ``crash`` (with its signal and the end of its stderr, where faulthandler prints the stack),
one that does not answer in time is killed and reported as ``timeout``; either way a fresh
worker takes its place. Workers are also replaced every ``recycle`` programs, since every
compiled function stays in the JIT. ``judge_many`` runs a list of paths on all workers at once
(one thread per worker).
"""

import json
import os
import queue
import select
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


class Worker:
    """One worker process and its pipes."""

    def __init__(self, python):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([python, "-P", os.path.join(HERE, "worker.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1)
        self.done = 0

    def stderr_tail(self, n=1500):
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - n))
        text = self.stderr.read().decode(errors="replace")
        return "\n".join(line for line in text.splitlines() if not line.startswith("fuzz: "))

    def judge(self, path, timeout):
        try:
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self.died()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.kill()
            return {"kind": "timeout", "detail": f"no answer in {timeout} s"}
        line = self.proc.stdout.readline()
        if not line:
            return self.died()
        self.done += 1
        return json.loads(line)

    def died(self):
        rc = self.proc.wait()
        sig = f"signal {-rc}" if rc < 0 else f"exit {rc}"
        return {"kind": "crash", "detail": f"worker died ({sig})\n{self.stderr_tail()}"}

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        self.stderr.close()


class Pool:
    """``n`` workers; a verdict per path, whatever the program does to its worker."""

    def __init__(self, n=2, timeout=60.0, recycle=250, python=None):
        self.python = python or sys.executable
        self.timeout, self.recycle = timeout, recycle
        self.free = queue.Queue()
        self.workers = []
        for _ in range(n):
            self.free.put(self.start())

    def start(self):
        w = Worker(self.python)
        self.workers.append(w)
        return w

    def replace(self, w):
        w.close() if w.proc.poll() is None else w.kill()
        self.workers.remove(w)
        return self.start()

    def judge(self, path):
        w = self.free.get()
        try:
            result = w.judge(path, self.timeout)
            if result["kind"] in ("crash", "timeout") or w.done >= self.recycle:
                w = self.replace(w)
            return result
        finally:
            self.free.put(w)

    def judge_many(self, jobs, on_result, stop=lambda: False):
        """Judge the paths that the iterator ``jobs`` yields (made lazily, in any order) with
        all workers, calling ``on_result(path, verdict)``, until it ends or ``stop()``."""
        lock = threading.Lock()

        def loop():
            while not stop():
                with lock:
                    p = next(jobs, None)
                if p is None:
                    return
                on_result(p, self.judge(p))

        threads = [threading.Thread(target=loop) for _ in self.workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def close(self):
        while self.workers:
            w = self.workers.pop()
            w.close()
