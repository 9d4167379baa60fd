"""torch.cuda: nndb computes on the CPU, so no CUDA device is available.
GPU probes (nndb probe, %doctor) read the hardware instead."""


def is_available():
    return False


def device_count():
    return 0


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def synchronize(device=None):
    pass


def empty_cache():
    pass
