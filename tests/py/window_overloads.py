"""The window functions choose among PyTorch 1.13's overloads as its argument parser does: kaiser_window(4, beta=2.0) and kaiser_window(4, 2.0) fit none of (window_length), (window_length, periodic), (window_length, periodic, beta) and raise the TypeError listing them; periodic must be a bool and window_length an int; one plausible overload names the wrong argument; integer and complex dtypes are refused in ATen's words; the valid calls give PyTorch's values."""
import numpy as np
import torch

calls = [
    "torch.kaiser_window(4, beta=2.0)", "torch.kaiser_window(4, True, 2.0)", "torch.kaiser_window(4, False, beta=2.0)",
    "torch.kaiser_window(4, periodic=False, beta=2.0)", "torch.kaiser_window(4, 2.0)", "torch.kaiser_window(4)",
    "torch.kaiser_window(4, False)", "torch.kaiser_window(4, True, 2.0, dtype=torch.float64)", "torch.kaiser_window(4, periodic=True)",
    "torch.kaiser_window(window_length=4)", "torch.kaiser_window(4, beta=2.0, periodic=True)", "torch.kaiser_window(4, True, beta=2.0)",
    "torch.kaiser_window(4, True, 2.0, torch.float64)", "torch.kaiser_window(4.0)", "torch.kaiser_window(4, 1, 2)",
    "torch.kaiser_window(4, True, 2)", "torch.kaiser_window(4, True, np.float32(2.5))", "torch.kaiser_window(4, True, torch.tensor(2.5))",
    "torch.kaiser_window(4, True, beta=None)", "torch.kaiser_window()", "torch.kaiser_window(True)",
    "torch.hann_window(4, False)", "torch.hann_window(4, periodic=False)", "torch.hann_window(4, periodic=1)",
    "torch.hann_window(window_length=4.5)", "torch.hann_window(4, requires_grad=True)", "torch.hann_window(4, requires_grad=None)",
    "torch.hann_window(4, foo=1)", "torch.hann_window(np.int64(5))", "torch.hann_window(4, device='cpu', dtype=torch.float64)",
    "torch.hann_window(4, dtype=None)", "torch.hann_window(4, layout=torch.strided)", "torch.hann_window(-1)", "torch.hann_window(0)",
    "torch.hann_window(1)", "torch.hann_window(4, periodic=np.bool_(False))", "torch.hann_window(4, 4, window_length=4)",
    "torch.hann_window(4, dtype=torch.int64)", "torch.hann_window(4, dtype=torch.uint8, requires_grad=True)",
    "torch.kaiser_window(4, True, 2.0, dtype=torch.int32)", "torch.hann_window(4, dtype=torch.complex64)", "torch.hann_window(1, dtype=torch.complex128)",
    "torch.hamming_window(4, False, 0.5)", "torch.hamming_window(4, False, 0.5, 0.4)", "torch.hamming_window(4, alpha=0.5)",
    "torch.hamming_window(4, False, alpha=0.5)", "torch.hamming_window(4, False, 0.5, beta=0.3)", "torch.hamming_window(5, False, 1, 0)",
    "torch.blackman_window(4, False)", "torch.blackman_window(6, dtype=torch.float64)", "torch.bartlett_window(5, periodic=False)",
    "torch.bartlett_window(4, True)", "torch.bartlett_window(4, 0.5)",
]
for c in calls:
    try:
        print(c, "->", eval(c))
    except Exception as e:
        print(c, "->", type(e).__name__, e)
