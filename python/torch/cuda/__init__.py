"""torch.cuda: nndb computes on the CPU, so no CUDA device is available.
GPU probes (nndb probe, %doctor) read the hardware instead."""


def is_available():
    """is_available() -> bool

    Whether a CUDA GPU can be used: always False in nndb, which computes on the
    CPU. Portable code picks its device with it:
    device = 'cuda' if torch.cuda.is_available() else 'cpu'.

    Example::

        >>> torch.cuda.is_available()
        False
    """
    return False


def device_count():
    """device_count() -> int

    The number of CUDA GPUs: 0 in nndb.

    Example::

        >>> torch.cuda.device_count()
        0
    """
    return 0


def manual_seed(seed):
    """manual_seed(seed) -> None

    Seed the random generator of the current GPU; without a GPU (as in nndb)
    nothing happens. torch.manual_seed seeds the CPU and every GPU.
    """
    pass


def manual_seed_all(seed):
    """manual_seed_all(seed) -> None

    Seed the random generators of every GPU; without a GPU (as in nndb)
    nothing happens.
    """
    pass


def synchronize(device=None):
    """synchronize(device=None) -> None

    Wait for the GPU's queued work to finish (before timing GPU code); nothing
    to wait for in nndb.
    """
    pass


def empty_cache():
    """empty_cache() -> None

    Give cached GPU memory back to the driver; nothing to do in nndb.
    """
    pass
