# The start below n with the longest Collatz chain, and that chain's length.
# args: (1000,)
# expect: (871, 179)
# args: (10,)
# expect: (9, 20)


def main(n):
    best, best_len = 1, 1
    for start in range(1, n):
        x = start
        length = 1
        while x != 1:
            if x % 2 == 0:
                x //= 2
            else:
                x = 3 * x + 1
            length += 1
        if length > best_len:
            best, best_len = start, length
    return best, best_len
