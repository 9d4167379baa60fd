"""torch.nn.utils.rnn: PackedSequence and the functions that build and undo
it (pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence),
as PyTorch 1.13 has them. A PackedSequence holds the active rows of every
time step one after the other (`data`), with how many sequences are still
running at each step (`batch_sizes`), the batch sorted by decreasing
length; nn.RNN, nn.LSTM and nn.GRU accept one and return one."""

from collections import namedtuple

import torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "pack_sequence"]


class PackedSequence(namedtuple("PackedSequence",
                                ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            raise TypeError("PackedSequence needs batch_sizes")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self):
        return self

    def double(self):
        return self.to(dtype=torch.float64)

    def float(self):
        return self.to(dtype=torch.float32)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    inverse = torch.empty_like(permutation)
    inverse[permutation] = torch.arange(permutation.numel())
    return inverse


def _batch_sizes(lengths):
    longest = int(lengths[0]) if lengths.numel() else 0
    return torch.tensor([int((lengths > t).sum()) for t in range(longest)], dtype=torch.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    if not torch.is_tensor(lengths):
        lengths = torch.as_tensor(lengths, dtype=torch.int64)
    lengths = lengths.to(torch.int64)
    if enforce_sorted:
        if lengths.numel() > 1 and bool((lengths[:-1] < lengths[1:]).any()):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability.")
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths.numel() and int(lengths[-1]) <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if batch_first:
        input = input.transpose(0, 1)
    if lengths.numel() and int(lengths[0]) > input.size(0):
        raise RuntimeError(f"Expected sequence length to be larger than or equal to "
                           f"{int(lengths[0])}, but got {input.size(0)}")
    batch_sizes = _batch_sizes(lengths)
    data = torch.cat([input[t, :int(k)] for t, k in enumerate(batch_sizes.tolist())], 0)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    data, batch_sizes = sequence.data, sequence.batch_sizes.tolist()
    steps = len(batch_sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
    else:
        total_length = steps
    batch = batch_sizes[0] if batch_sizes else 0
    rows = []
    offset = 0
    for k in batch_sizes:
        step = data[offset:offset + k]
        offset += k
        if k < batch:
            step = torch.cat([step, torch.full((batch - k,) + tuple(data.shape[1:]),
                                               padding_value, dtype=data.dtype)], 0)
        rows.append(step)
    for _ in range(total_length - steps):
        rows.append(torch.full((batch,) + tuple(data.shape[1:]), padding_value,
                               dtype=data.dtype))
    padded = torch.stack(rows, 0)
    lengths = torch.tensor([sum(1 for k in batch_sizes if k > i) for i in range(batch)],
                           dtype=torch.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    if torch.is_tensor(sequences):
        sequences = sequences.unbind(0)
    longest = max(s.size(0) for s in sequences)
    padded = []
    for s in sequences:
        if s.size(0) < longest:
            s = torch.cat([s, torch.full((longest - s.size(0),) + tuple(s.shape[1:]),
                                         padding_value, dtype=s.dtype)], 0)
        padded.append(s)
    return torch.stack(padded, 0 if batch_first else 1)


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([s.size(0) for s in sequences], dtype=torch.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)
