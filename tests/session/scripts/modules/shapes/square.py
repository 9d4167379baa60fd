def area(n):
    return n * n
