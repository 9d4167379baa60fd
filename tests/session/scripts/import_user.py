# Importing the user's own files: modules and packages found on sys.path
# (and the script's directory, the current directory), run once, cached in
# sys.modules, with globals of their own; a SyntaxError in an imported file
# names that file, its line and a caret.
import sys
sys.path.append("tests/session/scripts/modules")
import counter_mod
print(counter_mod.bump(), counter_mod.bump(), counter_mod.count)  # expect: 1 2 2
import counter_mod as again
print(again is counter_mod, __name__, counter_mod.__name__)  # expect: True __main__ counter_mod
counter_mod.count = 10
print(counter_mod.bump())  # expect: 11
count  # expect error: NameError: name 'count' is not defined
from shapes.square import area
print(area(3))  # expect: 9
import shapes.square
print(shapes.square.area is area, shapes.square.__name__)  # expect: True shapes.square
import broken_mod  # expect error: SyntaxError: '(' was never closed
# expect traceback: File "tests/session/scripts/import_user.py", line 18, in <module>
# expect traceback: broken_mod.py", line 3
# expect traceback: y = (1 +
import no_such_user_mod  # expect error: ModuleNotFoundError: No module named 'no_such_user_mod'
from counter_mod import nothing  # expect error: ImportError: cannot import name 'nothing' from 'counter_mod'
