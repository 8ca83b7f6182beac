# A range argument, and a range built and returned.
# args: (range(3, 20, 4),)
# expect: (55, range(19, 2, -4))
# args: (range(0),)
# expect: (0, range(-1, -1, -1))


def main(r):
    s = 0
    last = -1
    for i in r:
        s += i
        last = i
    return s, range(last, r.start - 1, -r.step)
