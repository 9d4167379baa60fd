"""A stand-in for the `expecttest` package, which Debian does not ship.

torch.testing._internal.common_utils imports it only for its TestCase base
class and the ACCEPT flag; gen.py puts this directory first on sys.path so
that common_modules (PyTorch's ModuleInfo database) can be imported.
"""
import unittest

ACCEPT = False


class TestCase(unittest.TestCase):
    def assertExpectedInline(self, actual, expect, skip=0):
        self.assertEqual(actual, expect)
