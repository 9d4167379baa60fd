"""nndb's Python side: the session (session, magics, display), and the
instruments and probes users call as nndb.NAME."""

from nndb.instruments import activations, dependencies, gradcheck, profile, stats  # noqa: F401
from nndb import probe  # noqa: F401,E402  (callable: nndb.probe() is `nndb probe`)
from nndb.probe import doctor  # noqa: F401,E402
