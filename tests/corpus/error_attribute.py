# An attribute that int64 does not have: a TypingError at the attribute expression.
# args: (3,)
# error: TypingError 11:13


def main(n):
    total = 0
    for i in range(n):
        total = total + i
    label = 1
    label = total.imaginary_part
    return label
