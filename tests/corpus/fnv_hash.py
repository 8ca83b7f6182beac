# FNV-1a style hashing: int64 multiplication wraps at 64 bits (Numba semantics, so CPython's
# unbounded ints are not the oracle here).
# oracle: none
# args: (10,)
# expect: -7493756954897988238
# args: (0,)
# expect: -3750763034362895579


def main(n):
    h = -3750763034362895579
    for i in range(n):
        h = (h ^ i) * 1099511628211
    return h
