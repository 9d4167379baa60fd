x = zeros(2, 3)
print(x[1, 2])
# expect: tensor(0.)
x[:, 7]
# expect error: IndexError: index 7 is out of bounds for dimension 1 with size 3
