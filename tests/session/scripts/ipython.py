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
# name? and ?name show IPython's pinfo; name?? adds a user function's source.
len?
# expect: Signature: len(obj, /)
# expect: Docstring: Return the number of items in a container.
# expect: Type:      builtin_function_or_method
?abs
# expect: Signature: abs(x, /)
# expect: Docstring: Return the absolute value of the argument.
# expect: Type:      builtin_function_or_method
def twice(a):
    # a comment in the body
    return 2 * a
twice??
# expect: Signature: twice(a)
# expect: Docstring: <no docstring>
# expect: Source:
# expect: def twice(a):
# expect:     # a comment in the body
# expect:     return 2 * a
# expect: File:      tests/session/scripts/ipython.py
# expect: Type:      function
# As in IPython, `name?` followed by a comment is not help: Python reads it.
no_such_thing?
# expect: Object `no_such_thing` not found.
no_such_thing?  # a comment
# expect error: SyntaxError: invalid syntax
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
# expect: CPU times: user ...
# expect: Wall time: ...
# expect: 42
y = 0
r = %timeit -o -q -n 3 -r 2 y = 1
print(r.loops, r.repeat, len(r.all_runs), y)  # expect: 3 2 2 0
# IPython's magics take the whole line, a comment too: the expectations of
# these go on the next line.
%env NNDB_IPYTHON_TEST=on the path
# expect: env: NNDB_IPYTHON_TEST=on the path
%env NNDB_IPYTHON_TEST
# expect: 'on the path'
%env NNDB_NOT_SET_ANYWHERE
# expect error: UsageError: Environment does not have key: NNDB_NOT_SET_ANYWHERE
# %cd to a folder that is not there prints the error, then the folder it stays in.
import contextlib, io, os
here = os.getcwd()
def cd_nowhere():
    %cd tests/session/scripts/no_such_dir
said = io.StringIO()
with contextlib.redirect_stdout(said):
    cd_nowhere()
said.getvalue().splitlines()[0]  # expect: "[Errno 2] No such file or directory: 'tests/session/scripts/no_such_dir'"
said.getvalue().splitlines()[1:] == [here], os.getcwd() == here  # expect: (True, True)
%run tests/session/scripts/no_such_file.py
# expect error: UsageError: File `'tests/session/scripts/no_such_file.py'` not found.
%reset -f
t = zeros(2, 3)
m = Sequential(Linear(2, 8), ReLU(), Linear(8, 1))
n = 5
%whos
# expect: Variable   Type          Data/Info
# expect: ----------------------------------
# expect: m          Sequential    33 parameters, 132 bytes
# expect: n          int           5
# expect: t          Tensor        [2, 3] float32, 24 bytes
%who
# expect: m	 n	 t	 ...
# Suggestions for what was nearly right.
%tme 1  # expect error: UsageError: Line magic function `%tme` not found. Did you mean: %time?
%timit 1  # expect error: UsageError: Line magic function `%timit` not found. Did you mean: %timeit?
onez(3)  # expect error: NameError: name 'onez' is not defined. Did you mean: 'ones'?
t.shap  # expect error: AttributeError: 'Tensor' object has no attribute 'shap'. Did you mean: 'shape'?
t.completely_unrelated  # expect error: AttributeError: 'Tensor' object has no attribute 'completely_unrelated'
# dir() lists the session's names: the prelude's are among them (they are
# the namespace's, not builtins).
%reset -f
only_me = 1
'only_me' in dir(), 'zeros' in dir(), 'len' in dir()  # expect: (True, True, False)
'len' in dir(__builtins__), 'zeros' in dir(__builtins__)  # expect: (True, False)
__builtins__.len([1, 2])  # expect: 2
