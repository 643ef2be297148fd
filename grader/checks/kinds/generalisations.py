"""The generalisations a function's code may miss: "your `patchify` is right when H == W, wrong
for a 6 x 9 image" (docs/spec.md). GENERALISATIONS holds each one's test of a case's arguments
(read by name: `reference_parameters`, `case_arguments`), its title and its words;
`generalisation(check, passed, failed)` finds the one the failing case alone breaks, and
`explained(result, check, passed, planned)` says it as a failed case's hint, when no
known-wrong variant matched (mistakes.py) and the case should have returned a value.
"""

from __future__ import annotations

import inspect
from dataclasses import replace

import numpy as np

from grader.spec.model import Check

from ..cases import PlannedCase
from ..course import reference_function
from ..results import FAILED, OBSERVATION
from .axes_off import ONE_AXIS_OFF


def explained(result, check: Check, passed: list[PlannedCase], planned: PlannedCase,
              failing: list[PlannedCase] = (), failures: list = ()):
    """`result` (a failed case's CheckResult) with the generalisation its code misses as hint
    and misconception ("only_square_images"), when no misconception matched and the case should
    have returned a value. `passed`: the cases that ran and passed, before or after `planned`
    (a request runs several); `failing`: the others that failed, a refusal's among them (a
    square image returned where ValueError is due belies "right when H == W"); `failures`:
    (planned case, outcome) of the function's failing cases on every check, this one's among
    them, which say how it fails where the generalisation does not hold (`generalisation`).
    The exception said is kept as the result's `raised` (raised_seen.py reads it)."""
    if (result.status != FAILED or result.misconception or not passed
            or planned.expectation()[1] is not None):
        return result
    found = generalisation(check, passed, planned, failing, failures)
    if found is None:
        return result
    name, hint = found
    holds = GENERALISATIONS.get(name.removeprefix(RAISES), (None,))[0]
    raised = None if holds is None else _raised(check, holds, failures)
    return replace(result, hint=hint, misconception=name, hint_kind=OBSERVATION,
                   raised=raised if raised and " or " not in raised else None)


def generalisation(check: Check, passed: list[PlannedCase], failed: PlannedCase,
                   failing: list[PlannedCase] = (), failures: list = ()
                   ) -> tuple[str, str] | None:
    """(name, hint) of the one of GENERALISATIONS that holds on every passed case and not on
    `failed`, nor on any other case in `failing` (a failure where it holds would belie it);
    when several do, all of them at once (SEVERAL: naming one of two differences may mislead);
    None when none does. `failures`: (planned case, outcome) of the function's failing cases,
    `failed`'s among them: how they fail on inputs of `failed`'s kind (where the generalisation
    does not hold; a failure of another kind, a 4-D array's refusal, says nothing of them) is
    said after "right ...": "raises X" where each of them raised X (a square-only guard),
    "wrong" where one of them should have returned a value and returned a wrong one, else
    "fails". Where a failure of the kind it holds on belies it, the true half alone, when each
    failure of `failed`'s kind raised (RAISES + its name) and no failure of the other kind raised
    the same: "Your `embed_image` raises ValueError for a 2-D (H, W) image", of code that also
    embeds a 3-D image P does not tile."""
    params, defaults = reference_parameters(check)
    named = [case_arguments(params, defaults, p) for p in passed]
    here = case_arguments(params, defaults, failed)
    others = [case_arguments(params, defaults, p) for p in failing]
    seen = [(name, holds, words) for name, (holds, _, _, words) in GENERALISATIONS.items()
            if all(holds(a) in (True, ONE_COLUMN_EACH, ASIDE) for a in named)
            and any(holds(a) is True for a in named) and holds(here) in (False, ONE_COLUMN_EACH)]
    if not {1, 3} <= {_channels_of(a) for a in named}:  # "gray and RGB": right on both seen
        seen = [(name, holds, words) for name, holds, words in seen if name != "only_gray_or_rgb"]
    found, halves = [], []
    for name, holds, words in seen:
        said, raised = words(here, check.hidden), _raised(check, holds, failures)
        if not any(holds(a) is True for a in others):
            how = (f", and raises {raised} " if raised else ", wrong "
                   if _returned(check, holds, failures) or not failures else ", and fails ")
            found.append((name, f"Your `{check.function}` is right "
                          + said.replace(", wrong ", how, 1)))
        elif (raised and ", wrong " in said  # belied: "right ..." is false, "raises" true
              and not _raised_where_it_holds(check, holds, failures) & set(raised.split(" or "))):
            halves.append((RAISES + name, f"Your `{check.function}` raises {raised} "
                           + said.split(", wrong ", 1)[1]))
    if not found:
        return halves[0] if len(halves) == 1 else None
    if len(found) < 2:
        return found[0]
    names = [name for name, _ in found]  # each holds on every pass: say them all, as one
    conditions = " and ".join(GENERALISATIONS[n][2][0] for n in names)
    aspects = [GENERALISATIONS[n][2][1] for n in names]
    aspects = ", ".join(aspects[:-1]) + f" or {aspects[-1]}"
    return SEVERAL, (f"Your `{check.function}` is right on every case that ran {conditions}, "
                     f"and wrong on this one, which is neither: look for a step that depends "
                     f"on {aspects}")


def _unlike(check: Check, holds, failures: list) -> list:
    """The outcomes of `failures` ((planned case, outcome) pairs) on inputs where `holds` is
    False: the failing cases of the kind a generalisation is not right for."""
    params, defaults = reference_parameters(check)
    return [o for p, o in failures if holds(case_arguments(params, defaults, p)) is False]


def _raised(check: Check, holds, failures: list) -> str | None:
    """The exception (or "X or Y": each one of them) every failing case of `failures` where
    `holds` is False raised; None where one did not raise, or none ran."""
    unlike = _unlike(check, holds, failures)
    if not unlike or any(o.status != "raised" for o in unlike):
        return None
    return " or ".join(sorted({o.error.type for o in unlike}))


def _raised_where_it_holds(check: Check, holds, failures: list) -> set[str]:
    """The exceptions failing cases of `failures` where `holds` is True raised: where one is
    the raise seen where it is False, the raise is not the generalisation's (a k x k kernel
    with k != C raised as k == C did: "raises for k == C" would single out what it is not)."""
    params, defaults = reference_parameters(check)
    return {o.error.type for p, o in failures
            if o.status == "raised" and holds(case_arguments(params, defaults, p)) is True}


def _returned(check: Check, holds, failures: list) -> bool:
    """Whether one of `failures` where `holds` is False returned a value where one was due."""
    params, defaults = reference_parameters(check)
    return any(o.status == "ok" and p.expectation()[1] is None for p, o in failures
               if holds(case_arguments(params, defaults, p)) is False)


def reference_parameters(check: Check) -> tuple[tuple[str, ...], dict]:
    """The reference function's parameters, and its defaults by name (`C=3`: a call that leaves
    one out uses it; one passed by position is read by its name); the API's own without it."""
    try:
        signature = inspect.signature(reference_function(check.reference_name, check.folder))
    except (AttributeError, ImportError, KeyError, TypeError, ValueError):
        return check.api.params(check.reference_name), {}
    return tuple(signature.parameters), {
        n: p.default for n, p in signature.parameters.items() if p.default is not p.empty}


def case_arguments(params: tuple[str, ...], defaults: dict, planned: PlannedCase) -> dict:
    """A case's arguments by name: those passed by position named by `params`, the reference's
    parameters, and `defaults` for those it leaves out (`C=3`), as `reference_parameters(check)`
    gives both."""
    return {**defaults, **dict(zip(params, planned.args, strict=False)), **planned.kwargs}


def _image_shape(arguments) -> tuple | None:
    shape = np.shape(arguments.get("image")) if "image" in arguments else ()
    return shape if len(shape) in (2, 3) else None


def _image_test(test):  # a test of the image's shape -> one of the arguments (None: no image)
    def holds(arguments):
        shape = _image_shape(arguments)
        return None if shape is None else test(shape)
    return holds


def _sizes(arguments) -> tuple | None:
    """(H, W): the image's first two axes, or a counting function's sizes H and W."""
    shape = _image_shape(arguments)
    if shape is not None:
        return shape[:2]
    H, W = arguments.get("H"), arguments.get("W")
    integers = all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in (H, W))
    return (int(H), int(W)) if integers else None


def is_square(arguments):
    sizes = _sizes(arguments)
    return None if sizes is None else sizes[0] == sizes[1]


_one_channel = _image_test(lambda shape: len(shape) == 2 or shape[2] == 1)


def _channels_of(arguments):
    """The case's channels: its image's (a 2-D image has one), else its count's `C`."""
    shape = _image_shape(arguments)
    return arguments.get("C") if shape is None else 1 if len(shape) == 2 else shape[2]


def _gray_or_rgb(arguments):
    """True for one or three channels, False for another number; None without one."""
    C = _channels_of(arguments)
    integer = isinstance(C, (int, np.integer)) and not isinstance(C, bool)
    return int(C) in (1, 3) if integer and C > 0 else None


_channels_axis = _image_test(lambda shape: len(shape) == 3)


def _one_head(arguments):
    """True for one head, False for several; ONE_COLUMN_EACH for several heads of one column
    each (d_h = 1: a head split in another order, or a per-head slice at h for h * d_h, is right
    there too, so a pass there tells nothing of the heads; a failure there is one with several)."""
    heads = arguments.get("heads")
    if not isinstance(heads, (int, np.integer)):
        return None
    width = np.shape(arguments.get("x", ()))[-1:] or (0,)
    return ONE_COLUMN_EACH if heads > 1 and width[0] == heads else int(heads) == 1


ONE_COLUMN_EACH = "one column each"  # a case a generalisation neither rests on nor is belied by
ASIDE = "aside"  # ... nor is said of when it fails: a passed one is no evidence, a failed one no
# instance (a single token (d,) for "wrong with leading axes")


def _no_batch_axis(arguments):
    """True for an `x` of two axes (T, d), False with leading (batch) axes, ASIDE for one of a
    single axis, which says nothing of them (a code that flattens to (-1, d) and never restores
    the shape is right for (T, d) only); None without one (attention's x has heads beside it:
    its own generalisation)."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim = np.ndim(arguments["x"])
    return None if ndim < 1 else ASIDE if ndim == 1 else ndim == 2


def _last_two_axes(arguments):
    """True along one of `x`'s last two axes (the default: the last), False along an earlier
    one; None without an `x` (or with heads: attention's own)."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim, axis = np.ndim(arguments["x"]), arguments.get("axis", -1)
    if ndim < 1 or not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        return None
    return int(axis) % ndim >= ndim - 2


def _last_axis(arguments):
    """True along `x`'s last axis (the default; a 1-D `x`'s only one), False along another;
    None without an `x`, or with heads: attention's own."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim, axis = np.ndim(arguments["x"]), arguments.get("axis", -1)
    if ndim < 1 or not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        return None
    return int(axis) % ndim == ndim - 1


def _float_image(arguments):
    """True for a float image, False for an integer one (8-bit pixels, as a file gives them)."""
    image = arguments.get("image")
    if not isinstance(image, np.ndarray) or _image_shape(arguments) is None:
        return None
    if np.issubdtype(image.dtype, np.floating):
        return True
    return False if np.issubdtype(image.dtype, np.integer) else None


def _kernel_unlike_channels(arguments):
    """False for a square kernel K (k, k, C, d) whose size k equals the image's channel count
    C (its first three axes then have one length), True for any other kernel; None without an
    image and a 4-D K."""
    shape, kernel = _image_shape(arguments), np.shape(arguments.get("K", ()))
    if shape is None or len(kernel) != 4:
        return None
    return not kernel[0] == kernel[1] == (1 if len(shape) == 2 else shape[2])


def _kernel_words(arguments, hidden):
    if hidden:
        return "a kernel whose size equals the channel count"
    k, C = np.shape(arguments["K"])[0], np.shape(arguments["K"])[2]
    return f"a {k} x {k} kernel on an image with {C} channel{'s' * (C != 1)} (k == C)"


def _kernel_equals_stride(arguments):
    """True for a square kernel K (k, k, C, d) whose size k equals the stride (windows that
    tile the image, as the patch embedding's k = stride = P), False for another stride; None
    without an image, a 4-D square K and an integer stride."""
    kernel, stride = np.shape(arguments.get("K", ())), arguments.get("stride")
    integer = isinstance(stride, (int, np.integer)) and not isinstance(stride, bool)
    if _image_shape(arguments) is None or len(kernel) != 4 or kernel[0] != kernel[1] or not integer:
        return None
    return kernel[0] == stride


def _stride_words(arguments, hidden):
    if hidden:
        return "a kernel size other than the stride"
    k = np.shape(arguments["K"])[0]
    return f"a {k} x {k} kernel with stride {arguments['stride']}"


def _image(arguments, hidden):
    H, W = _sizes(arguments)
    return "image" if hidden else f"{H} x {W} image"


# name -> (a test of the arguments: True, False or None when it does not apply; the class
# report's title; (the inputs it holds on, what they differ in), said when several hold; the
# words after "Your `f` is right ", given the failing case's arguments and whether the check
# is hidden)
GENERALISATIONS = {
    "only_square_images": (is_square, "right for square images only",
                           ("with H == W", "H and W"), lambda a, hidden: (
        f"when H == W, wrong for a {'non-square ' if hidden else ''}{_image(a, hidden)}: use H "
        "and W each where they belong")),
    "only_one_channel": (_one_channel, "right for one channel only",
                         ("with one channel", "the channels"), lambda a, hidden: (
        f"for one channel, wrong for an image with {_image_shape(a)[2]} channels: look at how "
        "the channels are read and in which order they are flattened")),
    "only_gray_or_rgb": (_gray_or_rgb, "right for gray and RGB only",
                         ("with one or three channels", "the number of channels"),
                         lambda a, hidden: (
        f"for one and three channels (gray and RGB), wrong for "
        f"{'another number of channels' if hidden else f'{_channels_of(a)} channels'}: the "
        "model solution's code is the same for any number of channels C (a patch holds P*P*C "
        "numbers)")),
    "only_3d_images": (_channels_axis, "wrong for 2-D (H, W) images",
                       ("with (H, W, C) images", "a 2-D image"), lambda a, hidden: (
        "for (H, W, C) images, wrong for a 2-D (H, W) image: a 2-D image is one channel, "
        "(H, W, 1): treat it as `image[..., None]` (and read H, W from `image.shape[:2]`).")),
    "only_one_head": (_one_head, "right for one head only",
                      ("with one head", "the number of heads"), lambda a, hidden: (
        f"with one head, wrong with heads={a['heads']}: look at each step that depends on the "
        "number of heads (the split into d // heads columns, the scale, the merge) or on the "
        "rank the heads give the scores (stacked (heads, T, T): the softmax over the keys is "
        "axis -1, not 1)")),
    "only_float_images": (_float_image, "right for float images only",
                          ("with float images", "the image's dtype"), lambda a, hidden: (
        f"for float images, wrong for a {a['image'].dtype} image (integer pixels, as a file "
        "gives them), whose expected result is what the same pixels give as floats: look for "
        "a step that treats integer pixels differently")),
    "only_2d_inputs": (_no_batch_axis, "wrong with leading (batch) axes",
                       ("with inputs of two axes", "leading axes"), lambda a, hidden: (
        f"for inputs of two axes (T, d), wrong for an input with leading axes {np.shape(a['x'])}: "
        "check what each step does with the axes before the last")),
    "only_last_two_axes": (_last_two_axes, "wrong along an axis before the last two",
                           ("along the last two axes", "`axis`"), lambda a, hidden: (
        f"along the last two axes of its input, wrong along axis {a['axis']} of one with "
        f"{np.ndim(a['x'])} axes: check each step that moves `axis` or reads along it")),
    "only_last_axis": (_last_axis, "right along the last axis only",
                       ("along the last axis", "`axis`"), lambda a, hidden: (
        f"along the last axis of its input, not along axis {a['axis']} of one with "
        f"{np.ndim(a['x'])} axes: `axis` may be any of its axes (where a library supports the "
        "last one only, move `axis` last and back)")),
    "only_kernel_unlike_channels": (
        _kernel_unlike_channels, "wrong when the kernel size equals the channel count",
        ("with a kernel size other than the channel count", "K's sizes"), lambda a, hidden: (
            f"when the kernel size k differs from the channel count C, wrong for "
            f"{_kernel_words(a, hidden)}: K is (k, k, C, d), and with k == C its first three "
            "axes have one length, so look at each step that depends on K's sizes (a test of "
            "its shape, or a reshape or transpose read off them), which cannot tell those axes "
            "apart there")),
    "only_kernel_equals_stride": (
        _kernel_equals_stride, "right only when the kernel size equals the stride",
        ("with the kernel size equal to the stride", "the kernel size and the stride"),
        lambda a, hidden: (
            f"when the kernel size k equals the stride (windows that tile, as ViT's patches "
            f"do), wrong for {_stride_words(a, hidden)}: each window is k x k and starts every "
            "`stride` pixels, so windows overlap where k > stride and leave pixels out where "
            "k < stride; look at each step that reads the windows, and at H' = (H - k) // "
            "stride + 1")),
}
SEVERAL = "only_narrower_inputs"  # several GENERALISATIONS hold: all said at once
RAISES = "raises_"  # + a generalisation's name: its true half where a failure belies it
RAISES_TITLES = {"only_square_images": "raises for non-square images",
                 "only_one_channel": "raises for several channels",
                 "only_gray_or_rgb": "raises for channels other than gray and RGB",
                 "only_3d_images": "raises for 2-D (H, W) images",
                 "only_one_head": "raises with several heads",
                 "only_float_images": "raises for integer images",
                 "only_2d_inputs": "raises with leading (batch) axes",
                 "only_last_two_axes": "raises along an axis before the last two",
                 "only_kernel_unlike_channels": "raises when the kernel size equals the channel "
                                                "count",
                 "only_kernel_equals_stride": "raises when the kernel size differs from the "
                                              "stride"}
TITLES = {**{name: title for name, (_, title, _, _) in GENERALISATIONS.items()},
          **{RAISES + name: title for name, title in RAISES_TITLES.items()},
          SEVERAL: "right on a narrower set of inputs",
          ONE_AXIS_OFF: "right values, an axis of length 1 too many, too few or moved"}
