# Counting primes below n by trial division: nested loops, break, continue.
# args: (1000,)
# expect: 168
# args: (2,)
# expect: 0


def main(n):
    count = 0
    for k in range(2, n):
        if k > 2 and k % 2 == 0:
            continue
        prime = True
        d = 3
        while d * d <= k:
            if k % d == 0:
                prime = False
                break
            d += 2
        if prime:
            count += 1
    return count
