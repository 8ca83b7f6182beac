# A string constant used as a number: kiln's message names both types.
# args: (3,)
# error: TypingError 8:12


def main(n):
    scale = n * 2
    return "x" + scale
