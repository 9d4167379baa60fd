# A module with a syntax error (tests/lang/import_user.nn).
x = 1
y = (1 +
