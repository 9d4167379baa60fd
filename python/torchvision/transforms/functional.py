"""The image functions under the transforms, for PIL images and tensors.

PIL images go through Pillow (Debian's python3-pil), with the calls
torchvision 0.14 makes, so they give torchvision's pixels. Tensors
([..., C, H, W]) go through torch ops, written after torchvision's
functional_tensor.py; resizing and rotating a tensor go through
torch.nn.functional.interpolate and grid_sample, as in torchvision.
"""

import enum
import math
import numbers

import numpy as np
import torch
from torch import Tensor


class InterpolationMode(enum.Enum):
    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


def _pil_modes():
    from PIL import Image

    R = Image.Resampling if hasattr(Image, "Resampling") else Image
    return {
        InterpolationMode.NEAREST: R.NEAREST,
        InterpolationMode.BILINEAR: R.BILINEAR,
        InterpolationMode.BICUBIC: R.BICUBIC,
        InterpolationMode.BOX: R.BOX,
        InterpolationMode.HAMMING: R.HAMMING,
        InterpolationMode.LANCZOS: R.LANCZOS,
    }


_INT_MODES = {0: InterpolationMode.NEAREST, 2: InterpolationMode.BILINEAR, 3: InterpolationMode.BICUBIC,
              4: InterpolationMode.BOX, 5: InterpolationMode.HAMMING, 1: InterpolationMode.LANCZOS}


def _interpolation_modes_from_int(i):
    return _INT_MODES[i]


def _check_interpolation(interpolation):
    if isinstance(interpolation, int):
        import warnings

        warnings.warn("Argument 'interpolation' of type int is deprecated since 0.13 and will be removed in 0.15. "
                      "Please use InterpolationMode enum.")
        interpolation = _interpolation_modes_from_int(interpolation)
    if not isinstance(interpolation, InterpolationMode):
        raise TypeError("Argument interpolation should be a InterpolationMode")
    return interpolation


def _is_pil_image(img):
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - python3-pil is a dependency
        return False
    return isinstance(img, Image.Image)


def _is_numpy(img):
    return isinstance(img, np.ndarray)


def _is_numpy_image(img):
    return img.ndim in {2, 3}


def _assert_image_tensor(img):
    if not (isinstance(img, Tensor) and img.ndim >= 2):
        raise TypeError("Tensor is not a torch image.")


def _assert_channels(img, permitted):
    c = get_dimensions(img)[0]
    if c not in permitted:
        raise TypeError(f"Input image tensor permitted channel values are {permitted}, but found {c}")


def get_dimensions(img):
    """[channels, height, width] of a PIL image or a [..., C, H, W] tensor."""
    if isinstance(img, Tensor):
        _assert_image_tensor(img)
        channels = 1 if img.ndim == 2 else img.shape[-3]
        height, width = img.shape[-2:]
        return [channels, height, width]
    if _is_pil_image(img):
        width, height = img.size
        return [len(img.getbands()), height, width]
    raise TypeError(f"Unexpected type {type(img)}")


def get_image_size(img):
    """[width, height]."""
    _, h, w = get_dimensions(img)
    return [w, h]


def get_image_num_channels(img):
    return get_dimensions(img)[0]


# ---- conversions ----------------------------------------------------------

def to_tensor(pic):
    """PIL image or HWC ndarray -> CHW tensor; uint8 becomes float in [0, 1]."""
    if not (_is_pil_image(pic) or _is_numpy(pic)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if _is_numpy(pic) and not _is_numpy_image(pic):
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    default_float_dtype = torch.get_default_dtype()
    if isinstance(pic, np.ndarray):
        if pic.ndim == 2:
            pic = pic[:, :, None]
        img = torch.from_numpy(np.ascontiguousarray(pic.transpose((2, 0, 1)))).contiguous()
        if img.dtype == torch.uint8:
            return img.to(dtype=default_float_dtype).div(255)
        return img
    mode_to_nptype = {"I": np.int32, "I;16": np.int16, "F": np.float32}
    img = torch.from_numpy(np.array(pic, mode_to_nptype.get(pic.mode, np.uint8), copy=True))
    if pic.mode == "1":
        img = 255 * img
    img = img.view(pic.size[1], pic.size[0], len(pic.getbands()))
    img = img.permute((2, 0, 1)).contiguous()
    if img.dtype == torch.uint8:
        return img.to(dtype=default_float_dtype).div(255)
    return img


def pil_to_tensor(pic):
    """PIL image -> CHW tensor of the image's own dtype (no scaling)."""
    if not _is_pil_image(pic):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    img = torch.as_tensor(np.array(pic, copy=True))
    img = img.view(pic.size[1], pic.size[0], len(pic.getbands()))
    return img.permute((2, 0, 1))


def _max_value(dtype):
    return {torch.uint8: 255, torch.int8: 127, torch.int16: 32767, torch.int32: 2147483647,
            torch.int64: 9223372036854775807}.get(dtype, 1)


def convert_image_dtype(image, dtype=torch.float):
    """Change a tensor image's dtype, rescaling values (uint8 255 <-> float 1.0)."""
    if not isinstance(image, Tensor):
        raise TypeError("Input img should be Tensor Image")
    if image.dtype == dtype:
        return image
    if image.is_floating_point():
        if dtype.is_floating_point:
            return image.to(dtype)
        if (image.dtype == torch.float32 and dtype in (torch.int32, torch.int64)) or (
                image.dtype == torch.float64 and dtype == torch.int64):
            raise RuntimeError(f"The cast from {image.dtype} to {dtype} cannot be performed safely.")
        eps = 1e-3
        max_val = float(_max_value(dtype))
        return image.mul(max_val + 1.0 - eps).to(dtype)
    input_max = float(_max_value(image.dtype))
    if dtype.is_floating_point:
        return image.to(dtype) / input_max
    output_max = float(_max_value(dtype))
    if input_max > output_max:
        factor = int((input_max + 1) // (output_max + 1))
        return torch.div(image, factor, rounding_mode="floor").to(dtype)
    factor = int((output_max + 1) // (input_max + 1))
    return image.to(dtype) * factor


def to_pil_image(pic, mode=None):
    """CHW tensor or HWC ndarray -> PIL image (float tensors are scaled by 255)."""
    from PIL import Image

    if not (isinstance(pic, Tensor) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if isinstance(pic, Tensor):
        if pic.ndimension() not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndimension()} dimensions.")
        if pic.ndimension() == 2:
            pic = pic.unsqueeze(0)
        if pic.shape[-3] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {pic.shape[-3]} channels.")
    else:
        if pic.ndim not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        if pic.ndim == 2:
            pic = np.expand_dims(pic, 2)
        if pic.shape[-1] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {pic.shape[-1]} channels.")
    npimg = pic
    if isinstance(pic, Tensor):
        if pic.is_floating_point() and mode != "F":
            pic = pic.mul(255).byte()
        npimg = np.transpose(pic.cpu().numpy(), (1, 2, 0))
    if npimg.shape[2] == 1:
        npimg = npimg[:, :, 0]
        expected = {np.dtype(np.uint8): "L", np.dtype(np.int16): "I;16", np.dtype(np.int32): "I",
                    np.dtype(np.float32): "F"}.get(npimg.dtype)
        if mode is not None and mode != expected:
            raise ValueError(f"Incorrect mode ({mode}) supplied for input type {np.dtype}. Should be {expected}")
        mode = expected
    elif npimg.shape[2] == 2:
        if mode is not None and mode != "LA":
            raise ValueError("Only modes ['LA'] are supported for 2D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "LA"
    elif npimg.shape[2] == 4:
        if mode is not None and mode not in ["RGBA", "CMYK", "RGBX"]:
            raise ValueError("Only modes ['RGBA', 'CMYK', 'RGBX'] are supported for 4D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGBA"
    else:
        if mode is not None and mode not in ["RGB", "YCbCr", "HSV"]:
            raise ValueError("Only modes ['RGB', 'YCbCr', 'HSV'] are supported for 3D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGB"
    if mode is None:
        raise TypeError(f"Input type {npimg.dtype} is not supported")
    return Image.fromarray(np.ascontiguousarray(npimg), mode=mode)


def normalize(tensor, mean, std, inplace=False):
    """(tensor - mean) / std per channel of a float [..., C, H, W] tensor."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    _assert_image_tensor(tensor)
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}")
    if not inplace:
        tensor = tensor.clone()
    dtype = tensor.dtype
    mean = torch.as_tensor(mean, dtype=dtype)
    std = torch.as_tensor(std, dtype=dtype)
    if (std == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to {dtype}, leading to division by zero.")
    if mean.ndim == 1:
        mean = mean.view(-1, 1, 1)
    if std.ndim == 1:
        std = std.view(-1, 1, 1)
    return tensor.sub_(mean).div_(std)


# ---- geometry -------------------------------------------------------------

def _compute_resized_output_size(image_size, size, max_size=None):
    if len(size) == 1:
        h, w = image_size
        short, long = (w, h) if w <= h else (h, w)
        requested_new_short = size if isinstance(size, int) else size[0]
        new_short, new_long = requested_new_short, int(requested_new_short * long / short)
        if max_size is not None:
            if max_size <= requested_new_short:
                raise ValueError(f"max_size = {max_size} must be strictly greater than the requested "
                                 f"size for the smaller edge size = {size}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    else:
        new_w, new_h = size[1], size[0]
    return [new_h, new_w]


def _cast_squeeze_in(img, req_dtypes):
    need_squeeze = False
    if img.ndim < 4:
        img = img.unsqueeze(dim=0)
        need_squeeze = True
    out_dtype = img.dtype
    need_cast = False
    if out_dtype not in req_dtypes:
        need_cast = True
        img = img.to(req_dtypes[0])
    return img, need_cast, need_squeeze, out_dtype


def _cast_squeeze_out(img, need_cast, need_squeeze, out_dtype):
    if need_squeeze:
        img = img.squeeze(dim=0)
    if need_cast:
        if out_dtype in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
            img = torch.round(img)
        img = img.to(out_dtype)
    return img


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=None):
    """Resize to (h, w), or the shorter side to `size` keeping the aspect ratio."""
    interpolation = _check_interpolation(interpolation)
    if isinstance(size, (list, tuple)):
        if len(size) not in [1, 2]:
            raise ValueError(f"Size must be an int or a 1 or 2 element tuple/list, not a {len(size)} element tuple/list")
        if max_size is not None and len(size) != 1:
            raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, "
                             "i.e. size should be an int or a sequence of length 1 in torchscript mode.")
    _, image_height, image_width = get_dimensions(img)
    if isinstance(size, int):
        size = [size]
    output_size = _compute_resized_output_size((image_height, image_width), size, max_size)
    if [image_height, image_width] == output_size:
        return img
    if not isinstance(img, Tensor):
        if antialias is not None and not antialias:
            import warnings

            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument antialias is ignored.")
        return img.resize(tuple(output_size[::-1]), _pil_modes()[interpolation])
    mode = interpolation.value
    if mode not in ("nearest", "bilinear", "bicubic"):
        raise ValueError(f"Interpolation mode '{mode}' is unsupported with Tensor input")
    if antialias and mode not in ["bilinear", "bicubic"]:
        raise ValueError("Antialias option is supported for bilinear and bicubic interpolation modes only")
    interpolate = getattr(torch.nn.functional, "interpolate", None)
    if interpolate is None:
        raise NotImplementedError("resizing a tensor image needs torch.nn.functional.interpolate, "
                                  "which nndb does not have yet; resize the PIL image before ToTensor()")
    img, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [torch.float32, torch.float64])
    align_corners = False if mode in ["bilinear", "bicubic"] else None
    kwargs = {"antialias": True} if antialias else {}
    img = interpolate(img, size=output_size, mode=mode, align_corners=align_corners, **kwargs)
    if mode == "bicubic" and out_dtype == torch.uint8:
        img = img.clamp(min=0, max=255)
    return _cast_squeeze_out(img, need_cast, need_squeeze, out_dtype)


def _parse_fill(fill, img, name="fillcolor"):
    num_channels = get_image_num_channels(img)
    if fill is None:
        fill = 0
    if isinstance(fill, (int, float)) and num_channels > 1:
        fill = tuple([fill] * num_channels)
    if isinstance(fill, (list, tuple)):
        if len(fill) != num_channels:
            raise ValueError("The number of elements in 'fill' does not match the number of channels of the image "
                             f"({len(fill)} != {num_channels})")
        fill = tuple(fill)
    if img.mode != "F":
        fill = tuple(int(x) for x in fill) if isinstance(fill, (list, tuple)) else int(fill)
    return {name: fill}


def _parse_pad_padding(padding):
    if isinstance(padding, int):
        return [padding] * 4
    if len(padding) == 1:
        return [padding[0]] * 4
    if len(padding) == 2:
        return [padding[0], padding[0], padding[1], padding[1]]
    return [padding[0], padding[2], padding[1], padding[3]]  # left, right, top, bottom


def pad(img, padding, fill=0, padding_mode="constant"):
    """Pad the borders: an int, (left/right, top/bottom) or (left, top, right, bottom)."""
    if not isinstance(padding, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if isinstance(padding, (tuple, list)) and len(padding) not in [1, 2, 4]:
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    if not isinstance(img, Tensor):
        from PIL import Image, ImageOps

        if isinstance(padding, list):
            padding = tuple(padding)
        if isinstance(padding, tuple) and len(padding) == 1:
            padding = padding[0]
        if padding_mode == "constant":
            opts = _parse_fill(fill, img, name="fill")
            if img.mode == "P":
                palette = img.getpalette()
                image = ImageOps.expand(img, border=padding, **opts)
                image.putpalette(palette)
                return image
            return ImageOps.expand(img, border=padding, **opts)
        pl, pr, pt, pb = _parse_pad_padding(padding)
        p = [pl, pt, pr, pb]
        cropping = -np.minimum(p, 0)
        if cropping.any():
            cl, ct, cr, cb = cropping
            img = img.crop((cl, ct, img.width - cr, img.height - cb))
        pl, pt, pr, pb = np.maximum(p, 0)
        arr = np.asarray(img)
        widths = ((pt, pb), (pl, pr)) + (((0, 0),) if arr.ndim == 3 else ())
        return Image.fromarray(np.pad(arr, widths, padding_mode))
    # Tensor.
    if fill is None:
        fill = 0
    if not isinstance(fill, (int, float)):
        raise TypeError("Got inappropriate fill arg")
    pl, pr, pt, pb = _parse_pad_padding(list(padding) if isinstance(padding, tuple) else padding)
    if min(pl, pr, pt, pb) < 0:
        h, w = img.shape[-2:]
        img = img[..., max(-pt, 0): h - max(-pb, 0), max(-pl, 0): w - max(-pr, 0)]
        pl, pr, pt, pb = (max(x, 0) for x in (pl, pr, pt, pb))
    if padding_mode == "constant":
        h, w = img.shape[-2:]
        out = torch.full(tuple(img.shape[:-2]) + (h + pt + pb, w + pl + pr), fill, dtype=img.dtype)
        out[..., pt:pt + h, pl:pl + w] = img
        return out
    # edge, reflect, symmetric: gather rows and columns by index (numpy's rules).
    h, w = img.shape[-2:]
    np_mode = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[padding_mode]
    rows = torch.as_tensor(np.pad(np.arange(h), (pt, pb), np_mode))
    cols = torch.as_tensor(np.pad(np.arange(w), (pl, pr), np_mode))
    return img.index_select(-2, rows).index_select(-1, cols)


def crop(img, top, left, height, width):
    """The box at (top, left) of size (height, width); outside the image is 0."""
    if not isinstance(img, Tensor):
        return img.crop((left, top, left + width, top + height))
    _assert_image_tensor(img)
    _, h, w = get_dimensions(img)
    right = left + width
    bottom = top + height
    if left < 0 or top < 0 or right > w or bottom > h:
        padding_ltrb = [max(-left + min(0, right), 0), max(-top + min(0, bottom), 0),
                        max(right - max(w, left), 0), max(bottom - max(h, top), 0)]
        return pad(img[..., max(top, 0):bottom, max(left, 0):right], padding_ltrb, fill=0)
    return img[..., top:bottom, left:right]


def center_crop(img, output_size):
    """The centred box of `output_size`, zero-padded when the image is smaller."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [
            (crop_width - image_width) // 2 if crop_width > image_width else 0,
            (crop_height - image_height) // 2 if crop_height > image_height else 0,
            (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
            (crop_height - image_height + 1) // 2 if crop_height > image_height else 0,
        ]
        img = pad(img, padding_ltrb, fill=0)
        _, image_height, image_width = get_dimensions(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    crop_top = int(round((image_height - crop_height) / 2.0))
    crop_left = int(round((image_width - crop_width) / 2.0))
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def resized_crop(img, top, left, height, width, size, interpolation=InterpolationMode.BILINEAR, antialias=None):
    img = crop(img, top, left, height, width)
    return resize(img, size, interpolation, antialias=antialias)


def hflip(img):
    if not isinstance(img, Tensor):
        from PIL import Image

        return img.transpose(Image.FLIP_LEFT_RIGHT)
    _assert_image_tensor(img)
    return img.flip(-1)


def vflip(img):
    if not isinstance(img, Tensor):
        from PIL import Image

        return img.transpose(Image.FLIP_TOP_BOTTOM)
    _assert_image_tensor(img)
    return img.flip(-2)


def _get_inverse_affine_matrix(center, angle, translate, scale, shear, inverted=True):
    rot = math.radians(angle)
    sx = math.radians(shear[0])
    sy = math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    if inverted:
        matrix = [d, -b, 0.0, -c, a, 0.0]
        matrix = [x / scale for x in matrix]
        matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty)
        matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty)
        matrix[2] += cx
        matrix[5] += cy
    else:
        matrix = [a, b, 0.0, c, d, 0.0]
        matrix = [x * scale for x in matrix]
        matrix[2] += matrix[0] * (-cx) + matrix[1] * (-cy)
        matrix[5] += matrix[3] * (-cx) + matrix[4] * (-cy)
        matrix[2] += cx + tx
        matrix[5] += cy + ty
    return matrix


def _rotate_tensor(img, matrix, interpolation, expand, fill):
    """Rotate a tensor image by sampling it on torchvision's affine grid.

    Without torch.nn.functional.grid_sample (nndb has none yet) only nearest
    sampling is done, by index: source pixel = round(((g + 1) * size - 1) / 2)
    as grid_sample(align_corners=False) computes it.
    """
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(f"Interpolation mode '{interpolation}' is unsupported with Tensor input")
    if expand:
        raise NotImplementedError("rotate(expand=True) of a tensor image is not in nndb yet; rotate the PIL image")
    w, h = img.shape[-1], img.shape[-2]
    grid_sample = getattr(torch.nn.functional, "grid_sample", None)
    if interpolation == "bilinear" and grid_sample is None:
        raise NotImplementedError("bilinear rotation of a tensor image needs torch.nn.functional.grid_sample, "
                                  "which nndb does not have yet; use NEAREST or rotate the PIL image")
    dtype = img.dtype if img.is_floating_point() else torch.float32
    theta = torch.tensor(matrix, dtype=dtype).reshape(1, 2, 3)
    d = 0.5
    base_grid = torch.empty(1, h, w, 3, dtype=dtype)
    base_grid[..., 0].copy_(torch.linspace(-w * 0.5 + d, w * 0.5 + d - 1, steps=w))
    base_grid[..., 1].copy_(torch.linspace(-h * 0.5 + d, h * 0.5 + d - 1, steps=h).unsqueeze_(-1))
    base_grid[..., 2].fill_(1)
    rescaled_theta = theta.transpose(1, 2) / torch.tensor([0.5 * w, 0.5 * h], dtype=dtype)
    grid = base_grid.view(1, h * w, 3).bmm(rescaled_theta).view(1, h, w, 2)
    img4, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [grid.dtype])
    if fill is not None:
        img4 = torch.cat((img4, torch.ones((img4.shape[0], 1, h, w), dtype=img4.dtype)), dim=1)
    if grid_sample is not None:
        out = grid_sample(img4, grid.expand(img4.shape[0], h, w, 2), mode=interpolation, padding_mode="zeros",
                          align_corners=False)
    else:
        ix = torch.round(((grid[0, ..., 0] + 1) * w - 1) / 2)
        iy = torch.round(((grid[0, ..., 1] + 1) * h - 1) / 2)
        inside = (ix >= 0) & (ix <= w - 1) & (iy >= 0) & (iy <= h - 1)
        flat = (iy.clamp(0, h - 1) * w + ix.clamp(0, w - 1)).long().view(-1)
        src = img4.reshape(img4.shape[0], img4.shape[1], h * w)
        out = src.index_select(2, flat).view(img4.shape[0], img4.shape[1], h, w)
        out = out * inside.to(out.dtype)
    if fill is not None:
        mask = out[:, -1:, :, :]
        out = out[:, :-1, :, :]
        mask = mask.expand_as(out)
        fill_list, len_fill = (fill, len(fill)) if isinstance(fill, (tuple, list)) else ([float(fill)], 1)
        fill_img = torch.tensor(fill_list, dtype=out.dtype).view(1, len_fill, 1, 1).expand_as(out)
        if interpolation == "nearest":
            m = (mask < 0.5).to(out.dtype)
            out = out * (1 - m) + fill_img * m
        else:
            out = out * mask + (1.0 - mask) * fill_img
    return _cast_squeeze_out(out, need_cast, need_squeeze, out_dtype)


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=None):
    """Rotate by `angle` degrees counter-clockwise about the centre (or `center`)."""
    interpolation = _check_interpolation(interpolation)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if not isinstance(img, Tensor):
        opts = _parse_fill(fill, img)
        return img.rotate(angle, _pil_modes()[interpolation], expand, center, **opts)
    center_f = [0.0, 0.0]
    if center is not None:
        _, height, width = get_dimensions(img)
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    return _rotate_tensor(img, matrix, interpolation.value, expand, fill)


# ---- colour ---------------------------------------------------------------

def _blend(img1, img2, ratio):
    ratio = float(ratio)
    bound = 1.0 if img1.is_floating_point() else 255.0
    return (ratio * img1 + (1.0 - ratio) * img2).clamp(0, bound).to(img1.dtype)


def rgb_to_grayscale(img, num_output_channels=1):
    """L = 0.2989 R + 0.587 G + 0.114 B (tensors); PIL's convert('L') for images."""
    if not isinstance(img, Tensor):
        from PIL import Image

        if num_output_channels == 1:
            return img.convert("L")
        if num_output_channels == 3:
            g = np.array(img.convert("L"), dtype=np.uint8)
            return Image.fromarray(np.dstack([g, g, g]), "RGB")
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.shape[-3] == 3:
        r, g, b = img.unbind(dim=-3)
        l_img = (0.2989 * r + 0.587 * g + 0.114 * b).to(img.dtype)
        l_img = l_img.unsqueeze(dim=-3)
    else:
        l_img = img.clone()
    if num_output_channels == 3:
        return l_img.expand(img.shape)
    return l_img


to_grayscale = rgb_to_grayscale


def adjust_brightness(img, brightness_factor):
    if not isinstance(img, Tensor):
        from PIL import ImageEnhance

        return ImageEnhance.Brightness(img).enhance(brightness_factor)
    if brightness_factor < 0:
        raise ValueError(f"brightness_factor ({brightness_factor}) is not non-negative.")
    _assert_channels(img, [1, 3])
    return _blend(img, torch.zeros_like(img), brightness_factor)


def adjust_contrast(img, contrast_factor):
    if not isinstance(img, Tensor):
        from PIL import ImageEnhance

        return ImageEnhance.Contrast(img).enhance(contrast_factor)
    if contrast_factor < 0:
        raise ValueError(f"contrast_factor ({contrast_factor}) is not non-negative.")
    _assert_channels(img, [3, 1])
    c = get_dimensions(img)[0]
    dtype = img.dtype if img.is_floating_point() else torch.float32
    if c == 3:
        mean = torch.mean(rgb_to_grayscale(img).to(dtype), dim=(-3, -2, -1), keepdim=True)
    else:
        mean = torch.mean(img.to(dtype), dim=(-3, -2, -1), keepdim=True)
    return _blend(img, mean, contrast_factor)


def adjust_saturation(img, saturation_factor):
    if not isinstance(img, Tensor):
        from PIL import ImageEnhance

        return ImageEnhance.Color(img).enhance(saturation_factor)
    if saturation_factor < 0:
        raise ValueError(f"saturation_factor ({saturation_factor}) is not non-negative.")
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    return _blend(img, rgb_to_grayscale(img), saturation_factor)


def _rgb2hsv(img):
    r, g, b = img.unbind(dim=-3)
    maxc = torch.max(img, dim=-3).values
    minc = torch.min(img, dim=-3).values
    eqc = maxc == minc
    cr = maxc - minc
    ones = torch.ones_like(maxc)
    s = cr / torch.where(eqc, ones, maxc)
    cr_divisor = torch.where(eqc, ones, cr)
    rc = (maxc - r) / cr_divisor
    gc = (maxc - g) / cr_divisor
    bc = (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = hr + hg + hb
    h = torch.fmod((h / 6.0 + 1.0), 1.0)
    return torch.stack((h, s, maxc), dim=-3)


def _hsv2rgb(img):
    h, s, v = img.unbind(dim=-3)
    i = torch.floor(h * 6.0)
    f = (h * 6.0) - i
    i = i.to(dtype=torch.int32)
    p = torch.clamp((v * (1.0 - s)), 0.0, 1.0)
    q = torch.clamp((v * (1.0 - s * f)), 0.0, 1.0)
    t = torch.clamp((v * (1.0 - s * (1.0 - f))), 0.0, 1.0)
    i = i % 6
    mask = (i.unsqueeze(dim=-3) == torch.arange(6).view(-1, 1, 1)).to(dtype=img.dtype)
    a1 = torch.stack((v, q, p, p, t, v), dim=-3)
    a2 = torch.stack((t, v, v, q, p, p), dim=-3)
    a3 = torch.stack((p, p, t, v, v, q), dim=-3)
    a4 = torch.stack((a1, a2, a3), dim=-4)
    # torchvision: einsum("...ijk, ...xijk -> ...xjk"); the mask is one-hot
    # over i, so the sum has one non-zero term and is exact in any order.
    return (mask.unsqueeze(-4) * a4).sum(dim=-3)


def adjust_hue(img, hue_factor):
    """Shift the hue by hue_factor (in [-0.5, 0.5]) turns of the colour wheel."""
    if not (-0.5 <= hue_factor <= 0.5):
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if not isinstance(img, Tensor):
        from PIL import Image

        input_mode = img.mode
        if input_mode in {"L", "1", "I", "F"}:
            return img
        h, s, v = img.convert("HSV").split()
        np_h = np.array(h, dtype=np.uint8)
        with np.errstate(over="ignore"):
            np_h += np.uint8(hue_factor * 255)
        h = Image.fromarray(np_h, "L")
        return Image.merge("HSV", (h, s, v)).convert(input_mode)
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    orig_dtype = img.dtype
    if img.dtype == torch.uint8:
        img = img.to(dtype=torch.float32) / 255.0
    img = _rgb2hsv(img)
    h, s, v = img.unbind(dim=-3)
    h = (h + hue_factor) % 1.0
    img = torch.stack((h, s, v), dim=-3)
    img_hue_adj = _hsv2rgb(img)
    if orig_dtype == torch.uint8:
        img_hue_adj = (img_hue_adj * 255.0).to(dtype=orig_dtype)
    return img_hue_adj


def erase(img, i, j, h, w, v, inplace=False):
    if not isinstance(img, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img
