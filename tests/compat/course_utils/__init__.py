# A package of the course's helpers (tests/compat/user_imports.py imports it).
VERSION = "0.1"
