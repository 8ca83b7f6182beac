"""random.sample and random.choices, written in kiln's subset over the random module's C entries
(lib/random.def: ``random.random()`` and ``kiln._iter.below(n)``, random.py's ``_randbelow``),
step for step as CPython 3.11's random.py, so that after ``random.seed(n)`` in compiled code
the results are the interpreter's after ``random.seed(n)``.

- ``random.sample(population, k, *, counts=None)``: population a list, tuple of one item type,
  str or range (a set, dict or array is CPython's TypeError, here a TypingError); the pool
  of indices when ``n <= setsize`` (random.py's test), else the set of drawn indices; counts=
  draws from ``range(total)`` and bisects the cumulative counts.
- ``random.choices(population, weights=None, *, cum_weights=None, k=1)`` (population and weights
  may also be 1-d arrays): ``floor(random() *
  n)`` without weights; with weights their running sums (as itertools.accumulate), then
  bisect_right over all but the last, as random.py; its ValueErrors for a length mismatch, a
  total <= 0 and a total that is not finite, its TypeError for both weights and cum_weights.
"""

import math
import random as _random

from .. import _iter
from ..errors import TypingError
from ..extending import overload, register_jitable, types


def _sequence(name, t):
    if isinstance(t, (types.ListType, types.UnicodeType, types.RangeType, types.UniTuple)):
        return
    if isinstance(t, types.Array) and t.ndim == 1 and name != "sample":
        return  # random.sample's isinstance(population, Sequence) refuses arrays
    if isinstance(t, types.BaseTuple):
        raise TypingError(f"random.{name}(): a tuple population needs items of one type, "
                          f"not {t}")
    raise TypingError(f"random.{name}(): the population must be a sequence (a list, tuple, "
                      f"str or range{'' if name == 'sample' else ' or 1-d array'}), not {t} "
                      "(CPython: for dicts or sets, use sorted(d))")


def _absent(t):
    return t is None or isinstance(t, types.NoneType)


@register_jitable
def _sample_indices(n, k):
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3) / math.log(4))
    if n <= setsize:
        pool = list(range(n))
        for i in range(k):
            j = _iter.below(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = {n}  # n is never drawn (j < n): only its item type matters
        for i in range(k):
            j = _iter.below(n)
            while j in selected:
                j = _iter.below(n)
            selected.add(j)
            result[i] = j
    return result


@register_jitable
def _cumulate(weights):
    cum = [weights[0] + 0 * weights[0]]
    for i in range(1, len(weights)):
        cum.append(cum[i - 1] + weights[i])
    return cum


@register_jitable
def _bisect_right(a, x, hi):
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@overload(_random.sample)
def _sample(population, k, counts=None):
    _sequence("sample", population)
    if not isinstance(k, types.Integer):
        raise TypingError(f"random.sample(): k must be an int, not {k}")
    if _absent(counts):
        def impl(population, k, counts=None):
            idx = _sample_indices(len(population), k)
            return [population[i] for i in idx]
        return impl
    _sequence("sample", counts)

    def impl_counts(population, k, counts=None):
        n = len(population)
        if len(counts) != n:
            raise ValueError("The number of counts does not match the population")
        if n == 0:  # random.py: cum_counts.pop() of an empty list
            raise IndexError("pop from empty list")
        cum = _cumulate(counts)
        total = cum.pop()
        if total <= 0:
            raise ValueError("Total of counts must be greater than zero")
        sel = _sample_indices(total, k)
        return [population[_bisect_right(cum, s, len(cum))] for s in sel]
    return impl_counts


@overload(_random.choices)
def _choices(population, weights=None, cum_weights=None, k=None):
    _sequence("choices", population)
    if k is not None and not isinstance(k, types.Integer):
        raise TypingError(f"random.choices(): k must be an int, not {k}")
    if isinstance(weights, types.Integer):
        raise TypingError("random.choices(): the number of choices must be a keyword "
                          "argument (k=...)")
    if _absent(weights) and _absent(cum_weights):
        def impl(population, weights=None, cum_weights=None, k=1):
            n = len(population) + 0.0
            return [population[int(_random.random() * n)] for i in range(k)]
        return impl
    if not _absent(weights) and not _absent(cum_weights):
        def both(population, weights=None, cum_weights=None, k=1):
            raise TypeError("Cannot specify both weights and cumulative weights")
        return both
    given = weights if _absent(cum_weights) else cum_weights
    _sequence("choices", given)
    cumulate = not _absent(weights)

    def impl_weights(population, weights=None, cum_weights=None, k=1):
        n = len(population)
        w = weights if cumulate else cum_weights
        if len(w) != n:
            raise ValueError("The number of weights does not match the population")
        if n == 0:  # random.py: cum_weights[-1] of an empty list
            raise IndexError("list index out of range")
        cum = _cumulate(w) if cumulate else [x + 0 * x for x in w]
        total = cum[n - 1] + 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        if not math.isfinite(total):
            raise ValueError("Total of weights must be finite")
        hi = n - 1
        return [population[_bisect_right(cum, _random.random() * total, hi)]
                for i in range(k)]
    return impl_weights
