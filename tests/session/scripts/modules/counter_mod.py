# A helper module for tests/session/scripts/import_user.py: its globals are its own.
count = 0


def bump():
    global count
    count += 1
    return count
