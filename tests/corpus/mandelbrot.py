# Escape-time iteration with complex arithmetic.
# args: (-0.75, 0.1, 200)
# expect: 33
# args: (0.0, 0.0, 50)
# expect: 50
# args: (1.0, 1.0, 50)
# expect: 2


def main(re, im, max_iter):
    c = complex(re, im)
    z = 0j
    for i in range(max_iter):
        z = z * z + c
        if z.real * z.real + z.imag * z.imag > 4.0:
            return i + 1
    return max_iter
