# Integer floor division by zero raises CPython's ZeroDivisionError.
# args: (7, 0)
# raises: ZeroDivisionError: integer division or modulo by zero
# args: (7, 2)
# expect: 3


def main(a, b):
    return a // b
