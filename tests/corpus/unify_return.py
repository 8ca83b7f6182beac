# An int on one path and a float on another unify to float64 (Numba semantics).
# oracle: none
# args: (True,)
# expect: 1.0
# args: (False,)
# expect: 2.5


def main(flag):
    if flag:
        return 1
    return 2.5
