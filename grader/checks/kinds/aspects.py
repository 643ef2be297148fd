"""The probes a guard of error_model/guards.py (and a convolution's refusal) is weighed on:
the failed call with what a guard tests varied, every other argument as the call had it. No
reference here: only the call's own arguments, varied (issue 38, "refusals")."""
from __future__ import annotations

import numpy as np

RANKS = ((), (3,), (2, 3))  # the leading axes of a rank probe: one token, a sequence, a batch


def put_argument(params, args: list, kwargs: dict, name: str, value) -> bool:
    """Set the argument `name` of a call's (args, kwargs) to `value` where the call passes it
    (by keyword or by position, `params` the function's parameters); False where it does not."""
    if name in kwargs:
        kwargs[name] = value
    elif name in params and params.index(name) < len(args):
        args[params.index(name)] = value
    else:
        return False
    return True


def rank_probes(params, arguments: dict) -> list[dict]:
    """`x` as a (d,) token, a (3, d) sequence and a (2, 3, d) batch, d its last axis as the call
    had it, for a function that takes `x` and no `axis` (a LayerNorm over the last axis, where
    code written for a (T, d) matrix refuses a single token and a batch): its values spread, so
    a normaliser's variance is far from its eps."""
    x = arguments.get("x")
    if "x" not in params or "axis" in params or not isinstance(x, np.ndarray) or not (
            1 <= x.ndim <= 3 and 0 < x.shape[-1] <= 64 and x.dtype.kind == "f"):
        return []
    d = x.shape[-1]
    out = []
    for lead in RANKS:
        shape = (*lead, d)
        values = (np.arange(int(np.prod(shape))) % 7 - 3.0).reshape(shape) * 0.5
        out.append({"x": values.astype(x.dtype)})
    return out


def channel_axis_probes(image: np.ndarray) -> list[dict]:
    """A gray (H, W) image as (H, W, 1), and an (H, W, 1) one as (H, W): the same pixels with
    the channel axis given or not, for a function whose patch size comes inside its `params`
    (embed_image), whose weights fit one channel either way."""
    if image.ndim == 2:
        return [{"image": image[..., None]}]
    return [{"image": image[..., 0]}] if image.ndim == 3 and image.shape[-1] == 1 else []


def aspect_probes(params, planned) -> list:
    """(args, kwargs) of `planned` with what a guard (error_model/guards.py) tests varied: its
    image as gray and as each of 1 to 4 channels, of a size its P tiles and with P = 1 (or, for
    a convolution's (image, K, ...), its kernel's side and a 1 x 1 kernel, the kernel resized to
    the channels: a gray image read wrongly may raise for every k but 1); its channel count `C`
    as 1, 2, 3, 4 and 6; its `x` as 1-D, 2-D, 3-D and 4-D along each `axis`; an `x` of a
    function with no `axis` (a normaliser over the last axis) as one (d,) token, a (T, d)
    sequence and a (B, T, d) batch of its own width d (`rank_probes`); an image whose patch size
    is no argument, with its channel axis given or left out (`channel_axis_probes`)."""
    arguments = {**dict(zip(params, planned.args, strict=False)), **planned.kwargs}
    varied = []
    image, P, K = arguments.get("image"), arguments.get("P"), arguments.get("K")
    if isinstance(image, np.ndarray) and image.ndim in (2, 3) and isinstance(
            P, (int, np.integer)) and not isinstance(P, bool) and 0 < P <= 16:
        for p in dict.fromkeys((int(P), 1)):
            for channels in ((), (1,), (2,), (3,), (4,)):
                shape = (2 * p, 3 * p, *channels)
                pixels = (np.arange(int(np.prod(shape))) % 251).reshape(shape)
                varied.append({"image": pixels.astype(image.dtype), "P": p})
    if (isinstance(image, np.ndarray) and image.ndim in (2, 3) and isinstance(K, np.ndarray)
            and K.ndim == 4 and 0 < K.shape[0] <= 16):
        for k in dict.fromkeys((K.shape[0], 1)):
            for channels in ((), (1,), (2,), (3,), (4,)):
                shape = (2 * k + 1, 3 * k + 1, *channels)
                pixels = (np.arange(int(np.prod(shape))) % 251).reshape(shape)
                varied.append({"image": pixels.astype(image.dtype), "K": np.resize(
                    K, (k, k, channels[0] if channels else 1, K.shape[3]))})
    if isinstance(image, np.ndarray) and P is None and K is None:  # P in a params dict:
        varied += channel_axis_probes(image)  # the image's own pixels, so its params fit
    if "C" in params and isinstance(arguments.get("C", 3), (int, np.integer)):
        varied += [{"C": C} for C in (1, 2, 3, 4, 6)]
    if "x" in params and "axis" in params and np.ndim(arguments.get("x", ())) >= 1:
        for shape in ((5,), (3, 4), (2, 3, 4), (2, 2, 3, 2)):
            x = (np.arange(int(np.prod(shape))) % 7 - 3.0).reshape(shape) * 0.5
            varied += [{"x": x, "axis": axis} for axis in range(-len(shape), len(shape))]
    varied += rank_probes(params, arguments)
    out = []
    for changes in varied:
        args, kwargs = list(planned.args), dict(planned.kwargs)
        for name, value in changes.items():
            if name in kwargs or params.index(name) >= len(args):
                kwargs[name] = value
            else:
                args[params.index(name)] = value
        out.append((tuple(args), kwargs))
    return out


def square_probes(params, planned) -> list:
    """(args, kwargs) of `planned` with its image square: gray and of 1, 3 and 4 channels, of
    two and three patches a side (P = the case's): where a guard refuses non-square images
    (error_model/guards.py), the code must return the model solution's value on each of these,
    as the probes of `aspect_probes` are all non-square (2P x 3P)."""
    arguments = {**dict(zip(params, planned.args, strict=False)), **planned.kwargs}
    image, P = arguments.get("image"), arguments.get("P")
    if not (isinstance(image, np.ndarray) and image.ndim in (2, 3) and isinstance(
            P, (int, np.integer)) and not isinstance(P, bool) and 0 < P <= 16):
        return []
    out = []
    for side in (2 * int(P), 3 * int(P)):
        for channels in ((), (1,), (3,), (4,)):
            shape = (side, side, *channels)
            pixels = (np.arange(int(np.prod(shape))) % 251).reshape(shape).astype(image.dtype)
            args, kwargs = list(planned.args), dict(planned.kwargs)
            if put_argument(params, args, kwargs, "image", pixels):
                out.append((tuple(args), kwargs))
    return out


# a convolution's probes, each (rows, columns) more than the kernel's side k, a stride, and the
# image's channels (None: the case's; 0: a 2-D image): a kernel as large as a side, windows
# that leave rows over, a kernel larger than the channel count, a gray image of either shape,
# and a kernel one pixel larger than both sides (which a kernel test with `and` for `or`
# refuses and no test at all does not: a check's cases may hold only kernels larger than one)
CONV_PROBES = ((0, 2, 1, None), (2, 0, 1, None), (1, 3, 2, None), (2, 4, 2, None),
               (4, 4, 3, None), (3, 3, 1, 1), (3, 3, 1, 3), (3, 5, 2, 0), (0, 0, 1, 3),
               (5, 2, 2, 0), (-1, -1, 1, None))


def conv_probes(params, planned) -> list | None:
    """(args, kwargs) of a convolution's case `planned` (image, K, b, stride) with its image's
    sizes, channels and stride as each of CONV_PROBES (the kernel resized to the channels), or
    None when its case is no such call (refusals.py's tiling probes' counterpart)."""
    arguments = {**dict(zip(params, planned.args, strict=False)), **planned.kwargs}
    image, K = arguments.get("image"), arguments.get("K")
    if not (isinstance(image, np.ndarray) and image.ndim in (2, 3) and isinstance(K, np.ndarray)
            and K.ndim == 4 and "stride" in arguments and len(params) == len(planned.args)):
        return None
    k, out = K.shape[0], []
    for rows, columns, stride, channels in CONV_PROBES:
        C = (image.shape[2] if image.ndim == 3 else 0) if channels is None else channels
        shape = (k + rows, k + columns, *((C,) if C else ()))
        if min(shape[:2]) < 1:  # a 1x1 kernel is larger than no image
            continue
        sized = {"image": (np.arange(int(np.prod(shape))) % 251).reshape(shape).astype(
                     image.dtype),
                 "K": np.resize(K, (K.shape[0], K.shape[1], C or 1, K.shape[3])),
                 "stride": stride}
        out.append((tuple(sized.get(name, value) for name, value in
                          zip(params, planned.args, strict=True)), {}))
    return out
