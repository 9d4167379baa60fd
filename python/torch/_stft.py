"""torch.stft and torch.istft (and the Tensor methods), composed as PyTorch
1.13 composes them (aten/src/ATen/native/SpectralOps.cpp) over nndb's
FFTW-based torch.fft: stft pads the signal (center=True, F.pad in
pad_mode), takes frames as an as_strided view (n_fft samples every
hop_length), multiplies them by the window (zero-padded on both sides to
n_fft when win_length < n_fft) and transforms each frame (rfft for real
input and onesided, else fft; normalized=True is norm="ortho"). istft
inverts each frame (irfft, or ifft for return_complex=True), multiplies by
the window, overlap-adds the frames (index_add at each frame's positions)
and divides by the overlap-added squared window, then trims the centre
padding or cuts / zero-pads to length. Every step is an op with a gradient,
so both are differentiable in the input and the window. Argument checks
and their messages are PyTorch's.
"""

import torch

def _warn_once(key, msg):
    # PyTorch's TORCH_WARN_ONCE, at the caller of the public function
    torch._utils._warn_once(key, msg, depth=3)


def _type_str(t):
    # Tensor::toString(): the legacy name for real dtypes ("torch.FloatTensor"),
    # backend + scalar type for complex ones ("CPUComplexFloatType").
    if t.is_complex():
        return "CPU" + {torch.complex64: "ComplexFloat",
                        torch.complex128: "ComplexDouble"}[t.dtype] + "Type"
    return t.type()


def _opt(v):
    return "None" if v is None else str(int(v))


def _window_str(window):
    if window is None:
        return "None"
    return f"{_type_str(window)}{{{list(window.shape)}}}"


def _centered_window(window, win_length, n_fft, like):
    """The window as n_fft samples: zeros on both sides of a shorter one
    (ones of win_length when no window is given); None when no window is
    given and win_length == n_fft."""
    if win_length == n_fft:
        return window
    left = (n_fft - win_length) // 2
    if window is None:
        window = torch.ones(win_length, dtype=like)
    return torch.cat([torch.zeros(left, dtype=window.dtype), window,
                      torch.zeros(n_fft - win_length - left, dtype=window.dtype)])


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    if center:
        signal_dim = input.dim()
        if (pad_mode == "reflect" and not input.is_floating_point() and not input.is_complex()
                and signal_dim <= 3):
            raise RuntimeError("\"reflection_pad1d\" not implemented for '"
                               + _SCALAR_NAMES.get(input.dtype, str(input.dtype)) + "'")
        extended_shape = [1] * (3 - signal_dim) + list(input.size())
        pad = int(n_fft // 2)
        padded = input.view(extended_shape)
        if padded.is_complex():
            # Real and imaginary parts padded alike (nndb's pad kernels are real).
            padded = torch.complex(torch.nn.functional.pad(padded.real, [pad, pad], pad_mode),
                                   torch.nn.functional.pad(padded.imag, [pad, pad], pad_mode))
        else:
            padded = torch.nn.functional.pad(padded, [pad, pad], pad_mode)
        input = padded
        input = input.view(input.shape[-signal_dim:])
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    ret_complex = complex_input if return_complex is None else bool(return_complex)

    def fail(msg):
        raise RuntimeError(
            f"stft({_type_str(input)}{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_str(window)}, normalized={int(normalized)}, "
            f"onesided={_opt(onesided)}, return_complex={_opt(return_complex)}) : {msg}")

    if not ret_complex and return_complex is None:
        _warn_once("stft", "stft will soon require the return_complex parameter be given for "
                   "real inputs, and will further require that return_complex=True in a future "
                   "PyTorch release.")
    if not input.is_floating_point() and not input.is_complex():
        fail("expected a tensor of floating point or complex values")
    if input.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    x = input.unsqueeze(0) if input.dim() == 1 else input
    batch, length = x.shape
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={win}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail(f"expected a 1D window tensor of size equal to win_length={win}, but got window "
             f"with size {list(window.shape)}")
    window_ = _centered_window(window, win, n_fft, x.dtype)
    n_frames = 1 + (length - n_fft) // hop
    x = x.contiguous()
    if x.is_complex():
        # Frames of the (real, imaginary) pairs: nndb's as_strided is real.
        frames = torch.view_as_complex(torch.view_as_real(x).contiguous().as_strided(
            (batch, n_frames, n_fft, 2), (2 * length, 2 * hop, 2, 1)))
    else:
        frames = x.as_strided((batch, n_frames, n_fft), (length, hop, 1))
    if window_ is not None:
        frames = frames * window_
    complex_fft = frames.is_complex()
    sided = (not complex_fft) if onesided is None else bool(onesided)
    norm = "ortho" if normalized else "backward"
    if complex_fft:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = torch.fft.fft(frames, dim=-1, norm=norm)
    else:
        out = torch.fft.rfft(frames, dim=-1, norm=norm) if sided else \
            torch.fft.fft(frames, dim=-1, norm=norm)
    out = out.transpose(1, 2)
    if input.dim() == 1:
        out = out.squeeze(0)
    return out if ret_complex else torch.view_as_real(out)


_SCALAR_NAMES = {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short",
                 torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool"}


def _overlap_add(frames, hop, total):
    """y[b, f * hop + j] = sum of frames[b, f, j] (PyTorch's unfold_backward
    of frames [B, F, n] into [B, total])."""
    if frames.is_complex():
        # index_add is real in nndb: the two parts one after the other.
        return torch.complex(_overlap_add(frames.real, hop, total),
                             _overlap_add(frames.imag, hop, total))
    b, nf, n = frames.shape
    pos = (torch.arange(nf).unsqueeze(1) * hop + torch.arange(n)).reshape(-1)
    zeros = torch.zeros(b, total, dtype=frames.dtype)
    return zeros.index_add(1, pos, frames.reshape(b, nf * n))


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def fail(msg, sep=" : "):
        raise RuntimeError(
            f"istft({_type_str(input)}{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_str(window)}, center={int(center)}, "
            f"normalized={int(normalized)}, onesided={_opt(onesided)}, length={_opt(length)}, "
            f"return_complex={int(return_complex)}){sep}{msg}")

    if not input.is_complex():
        _warn_once("istft", "istft will require a complex-valued input tensor in a future "
                   "PyTorch release. Matching the output from stft with return_complex=True. ")
    real = torch.view_as_real(input) if input.is_complex() else input
    input_dim = real.dim()
    if real.numel() == 0:
        fail("input tensor cannot be empty.")
    if input_dim not in (3, 4):
        fail(f"expected a tensor with 3 or 4 dimensions, but got {input_dim}")
    if real.shape[-1] != 2:
        fail("expected the last dimension to be 2 (corresponding to real and imaginary parts), "
             f"but got {input.shape[-1]}")
    n_frames = real.shape[-2]
    fft_size = real.shape[-3]
    expected_len = n_fft + hop * (n_frames - 1)
    sided = fft_size != n_fft if onesided is None else bool(onesided)
    if sided:
        if n_fft // 2 + 1 != fft_size:
            fail("expected the frequency dimension (3rd to the last) of the input tensor to "
                 f"match n_fft / 2 + 1 when onsided=True, but got {fft_size}")
    elif n_fft != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match "
             f"n_fft when onsided=False, but got {fft_size}")
    if not (0 < hop <= win):
        fail("expected 0 < hop_length <= win_length")
    if not (0 < win <= n_fft):
        fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail("Invalid window shape. window has to be 1D and length of `win_length`")
    window_tmp = window if window is not None else torch.ones(win, dtype=real.dtype)
    window_tmp = _centered_window(window_tmp, win, n_fft, real.dtype)
    z = input if input.is_complex() else torch.view_as_complex(real)
    if input_dim == 3:
        z = z.unsqueeze(0)
    z = z.transpose(1, 2)  # [channel, n_frames, fft_size]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = torch.fft.ifft(z, dim=-1, norm=norm)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not sided:
            z = z.narrow(-1, 0, n_fft // 2 + 1)
        frames = torch.fft.irfft(z, n=n_fft, dim=-1, norm=norm)
    y = _overlap_add(frames * window_tmp, hop, expected_len)
    sq = (window_tmp * window_tmp).expand(1, n_frames, n_fft)
    envelope = _overlap_add(sq, hop, expected_len)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = expected_len - n_fft // 2 if center else expected_len
    stop = min(end, expected_len)
    y = y[:, start:stop]
    envelope = envelope[:, start:stop]
    if bool(envelope.abs().min() < 1e-11):
        fail("window overlap add min: 1\n[ CPUBoolType{} ]", sep=" ")
    y = y / envelope
    if input_dim == 3:
        y = y.squeeze(0)
    if end > expected_len:
        _warn_once("istft_length", "The length of signal is shorter than the length parameter. "
                   "Result is being padded with zeros in the tail. Please check your center and "
                   "hop_length settings.")
        y = torch.nn.functional.pad(y, [0, end - expected_len])
    return y
