import torch


def get_batch(data, block_size, batch_size, step):
    # nanoGPT's get_batch without the randomness: consecutive windows
    xs, ys = [], []
    for b in range(batch_size):
        i = (step * batch_size + b) % (len(data) - block_size - 1)
        xs.append(data[i:i + block_size])
        ys.append(data[i + 1:i + 1 + block_size])
    return torch.stack(xs), torch.stack(ys)


def batches(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]
