# try/except is not supported by kiln's first version.
# args: (1,)
# error: UnsupportedError 8:5


def main(x):
    y = 0
    try:
        y = 10 // x
    except ZeroDivisionError:
        y = -1
    return y
