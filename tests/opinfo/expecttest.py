"""A stand-in for the `expecttest` package, which Debian does not ship.

PyTorch's test databases (OpInfo, ModuleInfo) import it at module level for
their TestCase base class; the conformance suites only read the databases,
so nothing here ever runs a test.
"""
import unittest

ACCEPT = False


class TestCase(unittest.TestCase):
    def assertExpectedInline(self, *args, **kwargs):
        raise unittest.SkipTest("expecttest is not installed (Debian lacks it)")
