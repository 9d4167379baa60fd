# IPython's habits at the prompt (each chunk runs as an interactive cell).
1 + 1  # expect: 2
_ * 10  # expect: 20
__  # expect: 2
___  # expect: 2
quiet = 3;
quiet;
quiet + 1;  # nothing shown: the ';' ends the last statement
_  # expect: 2
print("a;b")  # expect: a;b
"x;"  # expect: 'x;'
# name? and ?name show help; name?? adds the example and a user function's source.
zeros?
# expect: zeros(*size, dtype=None, requires_grad=False)
# expect:
# expect:     A tensor filled with 0. The size is given as ints or one tuple; dtype defaults to float32.
?ones_like
# expect: ones_like(input, dtype=None, requires_grad=False)
# expect:
# expect:     Ones with the shape and dtype of input.
def twice(a):
    # a comment in the body
    return 2 * a
twice??
# expect: twice(a)
# expect:
# expect:     defined at tests/session/scripts/ipython.py:21
# expect:
# expect: Source:
# expect: def twice(a):
# expect:     # a comment in the body
# expect:     return 2 * a
no_such_thing?  # expect: Object `no_such_thing` not found.
# !CMD runs a shell command; its output streams (stderr too).
!echo shell says hi; echo to stderr >&2
# expect: shell says hi
# expect: to stderr
for k in range(2):
    !echo in a block
# expect: in a block
# expect: in a block
x = 1
x != 2  # expect: True
%time 6 * 7
# expect: Wall time: ...
y = 0
%timeit -n 0 y = 1  # expect error: ValueError: %timeit -n needs a positive integer
%env NNDB_IPYTHON_TEST=on the path
# expect: env: NNDB_IPYTHON_TEST=on the path
%env NNDB_IPYTHON_TEST
# expect: on the path
%env NNDB_NOT_SET_ANYWHERE  # expect error: KeyError: environment variable NNDB_NOT_SET_ANYWHERE is not set
%cd tests/session/scripts/no_such_dir  # expect error: FileNotFoundError
%run tests/session/scripts/no_such_file.py  # expect error: FileNotFoundError: tests/session/scripts/no_such_file.py
%reset -f
t = zeros(2, 3)
m = Sequential(Linear(2, 8), ReLU(), Linear(8, 1))
n = 5
%whos
# expect: Variable   Type         Data/Info
# expect: ---------------------------------
# expect: m          Sequential   33 parameters, 132 bytes
# expect: n          int          5
# expect: t          Tensor       [2, 3] float32, 24 bytes
%who
# expect: m     Sequential 33 parameters
# expect: n     int 5
# expect: t     Tensor [2, 3] float32 (24 bytes)
# Suggestions for what was nearly right.
%tme 1  # expect error: NameError: unknown magic %tme. Did you mean: %time?
%timit 1  # expect error: NameError: unknown magic %timit. Did you mean: %timeit?
zero(3)  # expect error: NameError: name 'zero' is not defined. Did you mean: 'zeros'?
t.shap  # expect error: AttributeError: 'Tensor' object has no attribute 'shap'. Did you mean: 'shape'?
t.completely_unrelated  # expect error: AttributeError: 'Tensor' object has no attribute 'completely_unrelated'
# dir() lists the session's names, and says where the builtins are.
%reset -f
only_me = 1
dir()
# expect: (your variables; dir(__builtins__) lists the builtins)
# expect: ['only_me']
'zeros' in dir(__builtins__) and 'Linear' in dir(__builtins__)  # expect: True
__builtins__.zeros(2)  # expect: tensor([0., 0.])
