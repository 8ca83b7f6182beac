# Newton's iteration for a square root: float arithmetic must be bit-exact.
# args: (2.0,)
# expect: (1.414213562373095, 6)
# args: (1e10,)
# expect: (100000.0, 22)


def main(a):
    x = a if a > 1.0 else 1.0
    steps = 0
    while True:
        nxt = 0.5 * (x + a / x)
        steps += 1
        if nxt >= x:
            return x, steps
        x = nxt
