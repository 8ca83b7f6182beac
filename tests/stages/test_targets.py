"""Stage tests for the target interface (src/targets/target.h) and its CPU implementation: the
module lowering makes carries the CPU target's triple and data layout, which are LLVM's own for
the host; the math-naming hook reaches each math function as lowering always has (an LLVM
intrinsic overloaded on the float type, or libm's symbol with C99's "f" for float32); and
KILN_CPU / KILN_FEATURES still choose the CPU the code is made for.

The LLVM IR is read from ``_stages(f, keys)["llvm"]`` (before optimization, so the calls are
lowering's own); LLVM's view of the host comes from the ``llvm-config`` and ``opt`` of the LLVM
kiln was built with, when they are installed.
"""

import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import kiln
from kiln import _core


def ir_of(func, *keys):
    return _core._stages(func, keys)["llvm"]


def module_field(ir, field):
    m = re.search(r'^target %s = "([^"]*)"$' % field, ir, re.M)
    assert m, "no target %s in the module" % field
    return m.group(1)


def plus_one(x):
    return x + 1


def llvm_tool(name):
    """A tool of the LLVM kiln was built with (same major version), or None."""
    major = _core.llvm_info()["version"].split(".")[0]
    for config in ("llvm-config-" + major, "llvm-config"):
        path = shutil.which(config)
        if not path:
            continue
        out = subprocess.run([path, "--version", "--bindir"], capture_output=True, text=True)
        version, bindir = (out.stdout.split() + ["", ""])[:2]
        if out.returncode == 0 and version.split(".")[0] == major:
            return path if name == "llvm-config" else shutil.which(name, path=bindir)
    return None


# ---- identity: triple and data layout ----


def test_module_has_the_targets_triple_and_data_layout():
    info = _core.llvm_info()
    ir = ir_of(plus_one, "int64")
    assert info["target"] == "cpu"
    assert module_field(ir, "triple") == info["triple"]
    assert module_field(ir, "datalayout") == info["datalayout"]


def test_triple_and_data_layout_describe_this_machine():
    info = _core.llvm_info()
    machine = platform.machine().lower()
    arch = info["triple"].split("-")[0]
    assert arch == machine or (machine, arch) in {("amd64", "x86_64"), ("arm64", "aarch64")}
    layout = info["datalayout"].split("-")
    assert layout[0] == ("e" if sys.byteorder == "little" else "E")
    pointer = [f for f in layout if f.startswith("p:")]
    bits = int(pointer[0].split(":")[1]) if pointer else 64  # LLVM's default: 64-bit pointers
    assert bits == 8 * np.dtype(np.intp).itemsize


def test_triple_is_llvms_host_triple():
    config = llvm_tool("llvm-config")
    if not config:
        pytest.skip("no llvm-config of kiln's LLVM version")
    host = subprocess.run([config, "--host-target"], capture_output=True, text=True).stdout.strip()
    assert _core.llvm_info()["triple"] == host


def test_data_layout_is_llvms_for_the_triple():
    opt = llvm_tool("opt")
    if not opt:
        pytest.skip("no opt of kiln's LLVM version")
    info = _core.llvm_info()
    out = subprocess.run([opt, "-S", "-mtriple=" + info["triple"], "-mcpu=" + info["cpu"]],
                         input="", capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert module_field(out.stdout, "datalayout") == info["datalayout"]


# ---- math naming: what lowering calls for each math function ----


def m_sin(x):
    return math.sin(x)


def m_cos(x):
    return math.cos(x)


def m_sqrt(x):
    return math.sqrt(x)


def m_exp(x):
    return math.exp(x)


def m_log(x):
    return math.log(x)


def m_log2(x):
    return math.log2(x)


def m_fabs(x):
    return math.fabs(x)


def m_sinh(x):
    return math.sinh(x)


def m_tan(x):
    return math.tan(x)


def m_gamma(x):
    return math.gamma(x)


def m_cbrt(x):
    return math.cbrt(x)


def m_floor(x):
    return math.floor(x)


def m_atan2(x, y):
    return math.atan2(x, y)


def m_hypot(x, y):
    return math.hypot(x, y)


def m_fmod(x, y):
    return math.fmod(x, y)


def m_pow(x, y):
    return math.pow(x, y)


def m_copysign(x, y):
    return math.copysign(x, y)


def m_power_operator(x, y):
    return x ** y


def np_arctan2(a, b):
    return np.arctan2(a, b)


def np_tanh(a):
    return np.tanh(a)


# (function, its arity, what lowering calls: an intrinsic, suffixed .f64/.f32 by LLVM, or a
# libm symbol, suffixed "f" for float32)
MATH = [
    (m_sin, 1, "llvm.sin"),
    (m_cos, 1, "llvm.cos"),
    (m_sqrt, 1, "llvm.sqrt"),
    (m_exp, 1, "llvm.exp"),
    (m_log, 1, "llvm.log"),
    (m_log2, 1, "llvm.log2"),
    (m_fabs, 1, "llvm.fabs"),
    (m_floor, 1, "llvm.floor"),
    (m_pow, 2, "llvm.pow"),
    (m_copysign, 2, "llvm.copysign"),
    (m_power_operator, 2, "llvm.pow"),
    (m_sinh, 1, "sinh"),
    (m_tan, 1, "tan"),
    (m_gamma, 1, "tgamma"),
    (m_cbrt, 1, "cbrt"),
    (m_atan2, 2, "atan2"),
    (m_hypot, 2, "hypot"),
    (m_fmod, 2, "fmod"),
    (np_tanh, 1, "tanh"),
    (np_arctan2, 2, "atan2"),
]


def called(ir):
    return set(re.findall(r"call (?:fast |\w+ )*(?:float|double) @([\w.]+)\(", ir))


@pytest.mark.parametrize("func,arity,name", MATH, ids=[m[0].__name__ for m in MATH])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_math_function_names(func, arity, name, dtype):
    keys = (dtype,) * arity
    if func.__name__.startswith("np_"):
        keys = (("array", dtype, 1, "C", False),) * arity
    if name.startswith("llvm."):
        want = name + (".f64" if dtype == "float64" else ".f32")
    else:
        want = name + ("" if dtype == "float64" else "f")
    calls = called(ir_of(func, *keys))
    assert want in calls, (want, sorted(calls))


def test_math_of_an_int_is_computed_in_float64():
    assert "llvm.sin.f64" in called(ir_of(m_sin, "int64"))
    assert "atan2" in called(ir_of(m_atan2, "int64", "int32"))


# ---- KILN_CPU / KILN_FEATURES ----

def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 2.0
    return s


def child_report():
    """Run in a subprocess (the target is made when kiln._core is imported): what it got."""
    asm = _core._stages(total, (("array", "float64", 1, "C", False),))["asm"]
    info = _core.llvm_info()
    return {"cpu": info["cpu"], "features": info["features"], "triple": info["triple"],
            "wide": bool(re.search(r"%[yz]mm", asm)), "got": kiln.njit(total)(np.arange(1000.0))}


def run_child(**env):
    here = os.path.dirname(os.path.abspath(__file__))
    kiln_root = os.path.dirname(os.path.dirname(os.path.abspath(kiln.__file__)))
    code = "import json, test_targets as t; print(json.dumps(t.child_report()))"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=kiln_root,
                         **env), capture_output=True, text=True, timeout=120, cwd=here)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 CPU names")
def test_kiln_cpu_selects_the_cpu():
    want = float(sum(np.arange(1000.0) * 2.0))
    base = run_child(KILN_CPU="x86-64", KILN_FEATURES="")
    assert base["cpu"] == "x86-64" and base["features"] == ""
    assert base["triple"] == _core.llvm_info()["triple"]
    assert not base["wide"]  # plain x86-64 has SSE2 only: no ymm/zmm register in the code
    assert base["got"] == want
    v3 = run_child(KILN_CPU="x86-64-v3", KILN_FEATURES="+avx2")
    assert v3["cpu"] == "x86-64-v3" and v3["features"] == "+avx2"
    assert v3["got"] == want
