# Euclid's algorithm in a while loop with tuple assignment; the lcm from it.
# args: (1071, 462)
# expect: (21, 23562)
# args: (17, 5)
# expect: (1, 85)
# args: (0, 9)
# expect: (9, 0)


def main(a, b):
    x, y = a, b
    while y != 0:
        x, y = y, x % y
    if x == 0:
        return 0, 0
    return x, a // x * b
