x = arange(5)
x[::-1]
# expect error: ValueError: step must be greater than zero
