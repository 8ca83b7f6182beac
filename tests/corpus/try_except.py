# try/except compiles since issue 10 (this case was error_try.py, an UnsupportedError before):
# the division by zero is caught and the handler's value returned.
# args: (0,)
# expect: -1
# args: (5,)
# expect: 2


def main(x):
    y = 0
    try:
        y = 10 // x
    except ZeroDivisionError:
        y = -1
    return y
