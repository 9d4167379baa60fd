# Magics. An IPython magic's line is everything after its name, a comment
# too (IPython's: `%who  # note` asks for variables of the types '#' and
# 'note'), so expectations for those go on the next line.
alpha = 1
beta = [1, 2]
%who
# expect: alpha	 beta	 ...
%who int
# expect: alpha	 ...
%who str
# expect: No variables match your requested type.
# nndb's own: %seed N is manual_seed(N), %threads [N] torch's thread count.
%seed 3  # a comment after nndb's own magics is not an argument
r1 = rand(2)
%seed 3
(rand(2) == r1).all().item()  # expect: True
%threads 1
%threads
# expect: 1
%seed x  # expect error: UsageError: %seed needs an integer, got 'x'
%seed  # expect error: UsageError: %seed needs an integer: %seed N
%threads 0  # expect error: UsageError: %threads needs 1 to 1024 threads, got 0
%reset -f
%who
# expect: Interactive namespace is empty.
%time total = sum(range(1000))
# expect: CPU times: user ...
# expect: Wall time: ...
total  # expect: 499500
%help %seed
# expect: %seed N
# expect:
# expect:     seed the random generator (as manual_seed(N)).
# expect:
# expect:     Example:
# expect:         %seed 0
%help %nosuch  # expect error: UsageError: Line magic function `%nosuch` not found.
# The old interpreter's %load FILE ran a file in the session: IPython's %run -i.
%run -i tests/session/scripts/no_such_file.py
# expect error: UsageError: File `'tests/session/scripts/no_such_file.py'` not found.
