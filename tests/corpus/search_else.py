# for/else, and an early return from inside nested loops.
# args: (25, 10)
# expect: (3, 4)
# args: (3, 10)
# expect: (-1, -1)


def main(target, limit):
    for a in range(1, limit):
        for b in range(a, limit):
            if a * a + b * b == target:
                return a, b
    else:
        return -1, -1
    return 0, 0
