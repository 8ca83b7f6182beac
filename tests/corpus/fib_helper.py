# A jitted recursive helper called from the compiled entry point.
# args: (20,)
# expect: 6765
# args: (1,)
# expect: 1

import kiln


@kiln.njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main(n):
    return fib(n)
