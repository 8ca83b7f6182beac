# Min, max and mean of a homogeneous tuple argument, iterated with for.
# args: ((3, 1, 4, 1, 5, 9, 2, 6),)
# expect: (1, 9, 3.875)
# args: ((-2.5, 0.5),)
# expect: (-2.5, 0.5, -1.0)


def main(values):
    lo = values[0]
    hi = values[0]
    total = 0.0
    for v in values:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
        total += v
    return lo, hi, total / len(values)
