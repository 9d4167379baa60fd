# A module with a syntax error (tests/session/scripts/import_user.py).
x = 1
y = (1 +
