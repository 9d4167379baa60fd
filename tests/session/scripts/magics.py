# Magics.
alpha = 1
beta = [1, 2]
%who
# expect: alpha  int 1
# expect: beta   list of 2 items
%seed 3
%threads 1
%reset -f
%who  # expect: No variables.
%time total = sum(range(1000))
# expect: Wall time: ...
total  # expect: 499500
%help %seed
# expect: %seed N
# expect:
# expect:     Seed the random generator (as manual_seed(N)).
# expect:
# expect:     Example:
# expect:         %seed 0
%seed x  # expect error: ValueError: %seed needs an integer, got 'x'
%load tests/session/scripts/no_such_file.py  # expect error: FileNotFoundError: tests/session/scripts/no_such_file.py
