# A helper module for tests/lang/import_user.nn: its globals are its own.
count = 0


def bump():
    global count
    count += 1
    return count
