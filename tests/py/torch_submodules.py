"""The submodules `import torch` gives as attributes, as PyTorch's: torch.version, torch.__version__ comparing as a version (tuples and strs), torch.random with fork_rng, torch.return_types for isinstance, torch.functional, and torch.multiprocessing with spawn (a child's exception comes back as ProcessRaisedException)."""
import torch
import torch.multiprocessing as mp


def work(rank, n, q):
    q.put((rank, float(torch.ones(n).sum()) + rank))


def bad(rank):
    if rank == 1:
        raise ValueError("rank one failed")


if __name__ == "__main__":
    v = torch.__version__
    # Debian's PyTorch says 1.13.0a0 and nndb 1.13.1 (docs/language.md): compare away from 1.13.0
    print(v >= (1, 10), v >= (1, 12, 1), v < (2,), v < "1.9", v > "1.12.1", v >= "1.12", isinstance(v, str), v.split(".")[:2])
    print(torch.version.cuda, torch.version.debug, torch.version.hip, str(torch.version.__version__)[:4])
    torch.random.manual_seed(3)
    with torch.random.fork_rng():
        torch.manual_seed(5)
        inside = torch.rand(2)
    print(inside, torch.rand(2), torch.random.initial_seed())
    with torch.random.fork_rng(enabled=False):
        torch.rand(1)
    print(torch.rand(1))
    x = torch.tensor([[1., 3.], [2., 0.]])
    for r, name in [(torch.max(x, 0), "max"), (torch.sort(x), "sort"), (torch.topk(x, 1), "topk"), (torch.frexp(x), "frexp"),
                    (torch.aminmax(x), "aminmax"), (torch.linalg.slogdet(x), "linalg_slogdet"), (torch.linalg.qr(x), "linalg_qr"),
                    (torch.kthvalue(x, 1), "kthvalue"), (torch.histogram(x), "histogram")]:
        cls = getattr(torch.return_types, name)
        print(name, isinstance(r, cls), type(r).__name__, cls.__module__)
    print(torch.functional.einsum is torch.einsum, torch.functional.split is torch.split, torch.functional.norm(x))
    q = mp.get_context("spawn").SimpleQueue()
    mp.spawn(work, args=(3, q), nprocs=2)
    print(sorted([q.get(), q.get()]))
    try:
        mp.spawn(bad, nprocs=2)
    except mp.ProcessRaisedException as e:
        print(type(e).__name__, str(e).strip().splitlines()[-1], e.error_index)
    print(mp.get_sharing_strategy(), sorted(mp.get_all_sharing_strategies()), mp.cpu_count() > 0)
