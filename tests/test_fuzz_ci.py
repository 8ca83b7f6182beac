"""The fuzzer (tools/fuzz/) as part of the test suite: a fixed-seed batch, and its own parts.

``test_fixed_seed_batch_agrees_with_the_interpreter`` generates CI_COUNT programs from CI_SEED,
runs each interpreted (with kiln's specified semantics, tools/fuzz/model.py) and compiled, in
two worker processes, and fails listing every failure with its minimised repro (about a minute
on a 2-core machine). To see what remains, run the same batch from the command line:

    .venv/bin/python tools/fuzz/run.py --seed 20261201 --count 1500 --out fuzz-out

The other tests check the fuzzer itself, without compiling: the generator writes valid,
deterministic Python; the minimiser shrinks a synthetic failure; the model follows kiln's
documented rules (int64 wrap-around, Numba's promotion, weak scalars).
"""

import ast
import math
import os
import sys

import numpy as np
import pytest

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools",
                     "fuzz")
sys.path.insert(0, TOOLS)

import generate  # noqa: E402
import minimise  # noqa: E402
import model  # noqa: E402

CI_SEED = 20261201
CI_COUNT = 1500


def test_fixed_seed_batch_agrees_with_the_interpreter(tmp_path):
    import run

    summary = run.run(seed=CI_SEED, count=CI_COUNT, out=str(tmp_path / "fuzz"),
                      minimise_budget=40, minimise_limit=10, timeout=60.0, quiet=True)
    assert summary["programs"] == CI_COUNT
    assert summary["counts"].get("ok", 0) > CI_COUNT // 4, summary["counts"]  # not all skips
    failures = summary["failures"]
    if failures:
        parts = [run.report(summary)]
        for f in failures[:10]:
            source = f.get("repro_source", "")
            parts.append(f"\n---- seed {f['seed']} ({f['kind']}): {f['detail'][:300]}\n"
                         + source[source.find("def f("):])
        pytest.fail("\n".join(parts), pytrace=False)


@pytest.mark.parametrize("start", [0, 5000])
def test_generator_writes_valid_deterministic_python(start):
    for seed in range(start, start + 300):
        text = generate.program(seed)
        tree = ast.parse(text)
        compile(tree, f"<program {seed}>", "exec")
        names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert names == ["_arr", "f", "args"], names
        assert generate.program(seed) == text


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # np.float32(1e300) is inf, on purpose
def test_generated_arguments_build():
    ns = {}
    for seed in range(200):
        exec(generate.program(seed), ns)
        assert isinstance(ns["args"](), tuple)


def test_minimiser_shrinks_a_synthetic_failure():
    source = generate.PRELUDE + '''

def f(x0, x1):
    s1 = x1 + 1
    for i in range(3):
        s1 = s1 * 2
        if s1 > 4:
            s1 = s1 - x0[0] // 0
    a2 = np.sqrt(x0) + s1
    return (a2, s1)


def args():
    return (_arr([1.0, 2.0, 3.0, 4.0], 'float64', (2, 2), 'F'), 3)
'''

    def still_fails(text):  # the "bug": a floor division by zero
        return "// 0" in text

    small = minimise.minimise(source, still_fails)
    body = small[small.index("def f"):small.index("def args")]
    assert "// 0" in body and "for" not in body and "sqrt" not in body, body
    assert "'C'" in small and "(2, 2)" not in small, small
    assert len(small) < len(source) * 0.8


def test_model_follows_kiln_rules():
    assert model.fz_bin("+", 2 ** 63 - 1, 1) == -2 ** 63  # int64 wraps
    assert model.fz_bin("+", np.int8(100), np.int8(100)) == 200  # Numba: int64
    assert model.fz_bin("-", np.uint8(4), np.uint8(5)) == 2 ** 64 - 1  # uint64
    assert model.fz_bin("<<", 1, 64) == 0
    with pytest.raises(ValueError):
        model.fz_bin(">>", 1, -1)
    with pytest.raises(ZeroDivisionError):
        model.fz_bin("**", 0.0, -1)  # an int exponent: CPython and Numba
    assert model.fz_bin("**", 0.0, -1.0) == math.inf  # a float exponent: Numba
    with pytest.raises(OverflowError):
        model.fz_call("int", 1e300)  # no big ints in kiln
    assert np.isnan(model.fz_math("sqrt", -1.0))  # nan, not ValueError
    r = model.fz_bin("*", np.ones(2, np.float32), np.float64(2.0))  # same kind: weak
    assert r.dtype == np.float32
    # a higher kind: the scalar's own type (Numba), complex with floats at the array's precision
    assert model.fz_bin("*", np.ones(2, np.int64), np.float32(2.0)).dtype == np.float32
    assert model.fz_bin("*", np.ones(2, np.float32), 1j).dtype == np.complex64
    assert model.fz_bin("*", np.ones(2, np.int8), 2.5).dtype == np.float64
    with pytest.raises(OverflowError):
        model.fz_bin("+", np.zeros(2, np.uint8), 300, False, True)  # a literal, as NumPy 2
    with pytest.raises(model.Undefined):
        model.fz_bin("+", np.zeros(2, np.uint8), 300, False, False)  # a variable
    assert model.fz_bin("**", np.ones(2, np.bool_), 0).dtype == np.int64  # the int's type
    assert model.fz_bin("**", np.ones(2, np.bool_), 2, False, "constant").dtype == np.int8
    assert model.fz_ufunc("clip", np.ones(2, np.int32), np.float32(0), 0).dtype == np.float32
    # a nonzero base to an infinite power: nan+nanj, as Numba (CPython raises ZeroDivisionError)
    r = model.fz_bin("**", -2.0, complex(math.inf, 0.0))
    assert math.isnan(r.real) and math.isnan(r.imag)
    with pytest.raises(ZeroDivisionError):
        model.fz_bin("**", 0j, 1j)  # a zero base to a complex power still raises
    # np.full: an int64 fill value is a Python int, which must fit (NumPy 2's OverflowError)
    with pytest.raises(OverflowError):
        model.fz_full("full", True, 5, np.int64(2 ** 32), dtype=np.uint16)  # 2 ** 32, folded
    with pytest.raises(model.Undefined):
        model.fz_full("full", False, 5, np.int64(2 ** 32), dtype=np.uint16)  # maybe b[0]
    assert model.fz_full("full", False, 2, np.int64(7), dtype=np.uint16).dtype == np.uint16
    # unification: a variable or `x if c else y` holding uint64 and int64 is float64 in kiln
    with pytest.raises(model.Undefined):
        model.fz_scalar_aug("*", np.uint64(3), 1)
    with pytest.raises(model.Undefined):
        model.fz_ifexp(True, lambda: np.uint64(3), lambda: 1)
    assert model.fz_ifexp(False, lambda: np.int8(3), lambda: 1) == 1
