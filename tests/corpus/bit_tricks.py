# Population count, lowest set bit, Gray code and a shift, with & ^ << >>.
# args: (2 ** 40 - 1,)
# expect: (40, 1, 549755813888, 8796093022200)
# args: (96,)
# expect: (2, 32, 80, 768)


def main(x):
    count = 0
    y = x
    while y:
        y &= y - 1
        count += 1
    return count, x & -x, x ^ (x >> 1), x << 3
