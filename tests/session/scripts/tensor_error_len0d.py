len(tensor(1.0))
# expect error: TypeError: len() of a 0-d tensor
