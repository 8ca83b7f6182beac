# A name that is neither local, global nor builtin.
# args: (1.5,)
# error: TypingError 8:16


def main(x):
    y = x * 2
    return y + undefined_thing  # noqa: F821
