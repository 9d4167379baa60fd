"""torch.distributed over MPI: init_process_group(backend="mpi"), the
collectives, ReduceOp (docs/distributed.md). Launch with

    mpirun -np 2 nndb python script.py

A rank that leaves the script without destroy_process_group still leaves
the group (nndb's main finalizes MPI after the interpreter); one whose
script raised ends every rank (MPI_Abort), so the others do not wait.
"""

from torch.distributed.distributed_c10d import *  # noqa: F401,F403
from torch.distributed.distributed_c10d import __all__ as _c10d_all
from torch.distributed.check import dist_check  # noqa: F401

__all__ = list(_c10d_all) + ["dist_check"]
