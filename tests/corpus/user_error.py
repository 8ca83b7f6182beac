# A user-defined exception with constant arguments, raised two calls deep.
# args: (-1,)
# raises: CorpusError: ('negative input', -1)
# args: (4,)
# expect: 16

import kiln


class CorpusError(Exception):
    pass


@kiln.njit
def check_input(x):
    if x < 0:
        raise CorpusError("negative input", -1)
    return x


@kiln.njit
def square_checked(x):
    return check_input(x) * x


def main(x):
    return square_checked(x)
