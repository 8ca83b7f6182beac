"""Functions that more than one stage test compiles (kiln reads their source from this file)."""


def f_mixed(a, b):
    x = 1
    if a > 0:
        x = 2.5
    s = 0
    for i in range(a):
        s += b * i
    return s + x


def f_floordiv(a, b):
    return a // b


def f_while_true(n):
    i = 0
    while True:
        i += 1
        if i > n:
            return i


def f_if_false(x):
    if False:
        return 1.5
    return x


def f_raise(x):
    if x < 0:
        raise ValueError("negative")
    return x
