"""Operators on the tiling test: which sizes P x P patches are said to tile (issue 38).

The reference refuses, with ValueError, every H x W size whose height or width P does not divide
(`check_tiling`, a validation helper the tree never descends into). Real code tests it otherwise:

- one side only: `if H % P` (tinygrad's examples/vit.py, a square `image_size` assumed) or the
  width only (Zero to Mastery's `image_resolution = x.shape[-1]; assert image_resolution %
  patch_size == 0`), or a typo that leaves one side untested (`(W / W).is_integer()`);
- `and` for `or`: `if H % P != 0 and W % P != 0` (a hand-written test beside timm's
  PatchEmbed grid bookkeeping): refused only when neither side tiles;
- the area: `(H * W) % (P * P)` (N = HW / P**2 read as the test), 8 x 2 with P = 4 let through;
- `|` for `or` (pandas' and numpy's element-wise or, as in `df[(a != 0) | (b != 0)]`) with
  the parentheses left out, `H % P != 0 | W % P != 0`: `|` binds before `!=`, so Python reads a
  chained comparison, `H % P != (0 | W % P) != 0`;
- an operator confused in the test (confused_ops.py): `H & P` for `H % P` (blind round 74's
  b74_15, `assert height & patch_size == 0`), or the quotient `H // P`; each sentence quotes
  the test as the checked function passes its sizes, and gives sizes it refuses or lets through
  wrongly among the probes' (`confused_tests`);
- no tiling test at all (the floored grid of timm's `strict_img_size=False`);
- the sides compared to each other: square images only (early lucidrains vit-pytorch's one
  `image_size`, `assert H == W`), a non-square image refused even where P tiles it;
- the image zero-padded at the bottom and right to a multiple of P first (timm's
  `dynamic_img_pad`, Swin's PatchEmbed `F.pad`): patches of the padded image, no refusal; or
  evenly on both sides, the odd row or column after (vintage-models' PatchConverter, blind round
  66's b66_14) or before, or at the top and left: each place its own name, told apart by the
  probe sizes;
- a 4-D array taken as a batch of images (MAE's `patchify(imgs)` on (N, H, W, C), timm's
  PatchEmbed on (B, C, H, W)): every image's patches, one image after the other;
- the image cropped to the patches that fit before its grid is cut (`cropped`: a kernel =
  stride = P convolution's floor): alone it changes nothing, the test refuses first; after a
  test that lets a size through (walker-at's width-only test) that size gets its top-left
  patches. Tried only as a pair's second part (AFTER_REFUSAL);
- and the count taken by area, `H * W // (P * P)` for `(H // P) * (W // P)` (the lecture's
  N = HW / P**2, Zero to Mastery's `int((height * width) / patch_size**2)`): the same where P
  tiles both sides, more patches where the area divides and the sides do not;
- or the count taken with true division, `(H / P) * (W / P)` (a ViT FLOPs script's `n_patches =
  (h / patch_size) * (w / patch_size)`): a float, a fraction of a patch where P does not tile
  (`true_division`, tried only as a pair's second part, AFTER_REFUSAL).

The test's own edits apply where the checked function, or a helper it calls directly, calls
`check_tiling` (the counting functions and `patchify`): few sites. Their values differ from the
reference's only on sizes that do not tile, which a check's refusal cases ask about; those
cases are weighed by `checks/kinds/refusals.py` (`named_refusal`), which names one of these edits
only when it reproduces every case the function ran, each raise by its exception's type, and
the student's code on probe sizes; the search never tries them (`modules.NAMED_ELSEWHERE`).

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator

import numpy as np

from grader.reference.counting import as_int, check_patch_size, check_tiling
from grader.reference.patches import as_hwc

from .change import EFFECT, Change, Context, code, near_checked, returned, where
from .confused_ops import helper_rewrites, old_words, spelled
from .tree import PREFIX

TESTED = "check_tiling"  # the reference's tiling test
IMAGE = "as_hwc"  # the reference's image, read as (H, W, C)


def _sizes(H, W, P) -> tuple[int, int, int]:
    """(H, W, P) as ints, or the reference's TypeError / ValueError for a size that is no
    positive integer: every variant below keeps those refusals."""
    H, W, P = as_int("height H", H), as_int("width W", W), check_patch_size(P)
    if H <= 0 or W <= 0:
        raise ValueError(f"image size must be positive, got {H}x{W}")
    return H, W, P


def _refusing(untiled):
    """A tiling test that refuses the sizes `untiled(H, W, P)` holds for, and no other."""
    def check(H, W, P):
        H, W, P = _sizes(H, W, P)
        if untiled(H, W, P):
            raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
        return H, W, P
    return check


# detail -> (the test, what the code tests, a size it lets through or refuses wrongly, the fix)
VARIANTS = {
    "height-only": (_refusing(lambda H, W, P: H % P), "the height only (`H % P`)",
                    "a 32 x 30 image with P = 16 gets a count", "test `W % P` too"),
    "width-only": (_refusing(lambda H, W, P: W % P), "the width only (`W % P`)",
                   "a 30 x 32 image with P = 16 gets a count", "test `H % P` too"),
    "both-sides": (_refusing(lambda H, W, P: H % P and W % P),
                   "`H % P and W % P`: it refuses only sizes neither of whose sides P tiles",
                   "a 30 x 32 image with P = 16 gets a count",
                   "refuse when either side leaves pixels over (`or`)"),
    "area": (_refusing(lambda H, W, P: (H * W) % (P * P)), "the area (`(H * W) % (P * P)`)",
             "an 8 x 2 image with P = 4 (area 16) gets a count",
             "test `H % P` and `W % P`, each side"),
    "none": (_refusing(lambda H, W, P: False), "nothing: no size P does not tile is refused",
             "a 30 x 32 image with P = 16 gets a count",
             "raise ValueError when P does not divide H or W"),
    "bitwise-or": (_refusing(lambda H, W, P: H % P != (0 | W % P) != 0),
                   "`H % P != 0 | W % P != 0`, where `|` binds before `!=`: Python reads "
                   "`H % P != (0 | W % P) != 0`, which refuses only sizes whose width P does "
                   "not tile and whose two remainders differ",
                   "a 30 x 32 or a 30 x 30 image with P = 16 gets a count",
                   "write `or`, or put each test in parentheses"),
    "bitwise-or-width-first": (_refusing(lambda H, W, P: W % P != (0 | H % P) != 0),
                               "`W % P != 0 | H % P != 0`, where `|` binds before `!=`: Python "
                               "reads `W % P != (0 | H % P) != 0`, which refuses only sizes "
                               "whose height P does not tile and whose two remainders differ",
                               "a 32 x 30 or a 30 x 30 image with P = 16 gets a count",
                               "write `or`, or put each test in parentheses"),
    "square-only": (_refusing(lambda H, W, P: H != W or H % P),
                    "that the image is square (`H == W`) as well as `H % P`",
                    "a 224 x 160 image with P = 16, which P tiles, raises ValueError",
                    "accept every H x W size that P tiles, square or not"),
}


# variants made only where the sizes tested are the function's own parameters (`num_patches(H,
# W, P)`), not an image's shape: an image whose sides differ also raises in code that cuts it
# with H and W swapped (a loop's bounds), no square test there
GIVEN_SIZES_ONLY = ("square-only",)


def tiling(context: Context, node: ast.AST) -> Iterator[Change]:
    """The reference's tiling test `check_tiling(H, W, P)` made as one of VARIANTS."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == TESTED and len(node.args) == 3 and near_checked(context)):
        return
    parameters = {a.arg for a in context.instance.node.args.args}
    given = all(isinstance(a, ast.Name) and a.id in parameters for a in node.args[:2])
    for detail, (test, tests, shows, fix) in VARIANTS.items():
        if detail in GIVEN_SIZES_ONLY and not given:
            continue
        bound = f"{PREFIX}tiling_{detail.replace('-', '_')}"
        # no test at all is the code the student wrote (timm's floored grid): the sentence
        # does not quote the reference's test as if the file had one that does nothing, nor
        # say it refuses no size (a window or a convolution may refuse an image with none
        # whole: round 54's b54_01 and b54_06), only what is let through
        said = (f"In {where(context)}, there is no tiling test"
                if detail == "none" else
                f"In {where(context)}, the tiling test (the model solution's `{code(node)}`) tests "
                f"{tests}")  # the model solution's helper: a student's test is often inline
        if not given:  # a count only where the sizes are the function's own (num_patches'):
            shows = shows.replace("gets a count", "is let through")  # else patches, tokens
        if detail == "none":
            shows = shows.replace("a 30 x 32 image with P = 16",
                                  "a size P does not tile (30 x 32 with P = 16)")
        yield Change(detail,
                     f"{said}: {shows}. P x P patches tile an H x W image only when P divides "
                     f"both H and W: {fix}.",
                     lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), n.args,
                                                     n.keywords),
                     names=((bound, test),))
    yield from confused_tests(context, node, given)


# sizes (H, W, P) a confused test's sentence may speak of, P tiling them or not: each among the
# sizes the student's code answered before such a test is named (checks/kinds/refusals.PROBES,
# tests/test_error_model.py), none whose patches are too many to be sent back
TILED = ((32, 32, 16), (16, 48, 16))
UNTILED = ((8, 2, 4), (32, 30, 16), (30, 32, 16), (30, 30, 16), (18, 29, 16))


def _refuses(test, sizes) -> bool:
    try:
        test(*sizes)
    except ValueError:
        return True
    return False


def _quoted(forms: list[str]) -> str:
    return " and ".join(f"`{form}`" for form in forms)


def article(H: int) -> str:
    """"a" or "an" before the size H spoken ("an 8 x 2 image", "an 18 x 29 image")."""
    return "an" if str(H).startswith("8") or H in (11, 18) else "a"


def confused_tests(context: Context, node: ast.Call, given: bool) -> Iterator[Change]:
    """The tiling test `check_tiling(H, W, P)` with one of its operators confused
    (confused_ops.helper_rewrites): `H & P` for `H % P`. Its sentence quotes the test as this
    call passes its sizes and gives a size P tiles that it refuses and one P does not tile that
    it lets through, the first of TILED and of UNTILED, where there is one."""
    helper = context.instance.function.__globals__.get(TESTED, check_tiling)
    for rewrite in helper_rewrites(helper):
        bound = f"{PREFIX}tiling_{rewrite.detail.replace('-', '_').replace('.', '_')}"
        refused = next((s for s in TILED if _refuses(rewrite.function, s)), None)
        through = next((s for s in UNTILED if not _refuses(rewrite.function, s)), None)
        shows = ([] if refused is None else [
            f"{article(refused[0])} {refused[0]} x {refused[1]} image with P = {refused[2]}, "
            "which P tiles, raises ValueError"]) + ([] if through is None else [
                f"{article(through[0])} {through[0]} x {through[1]} image with P = "
                f"{through[2]} {'gets a count' if given else 'is let through'}"])
        forms = spelled(helper, rewrite.node, node)
        old = f"{old_words(rewrite.node)}{'s' * (len(forms) > 1)} {_quoted(forms)}"
        yield Change(rewrite.detail,
                     f"In {where(context)}, the tiling test (the model solution's `{code(node)}`) "
                     f"computes {_quoted(spelled(helper, rewrite.new, node))} ({rewrite.words}) "
                     f"where the model solution takes {old}"
                     + (f": {', and '.join(shows)}" if shows else "")
                     + f". P x P patches tile an H x W image only when P divides both H and W: "
                     f"test {old}.",
                     lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), n.args,
                                                     n.keywords),
                     names=((bound, rewrite.function),))


def pad_to_tile(image, P, split=lambda pad: (0, pad)):
    """The (H, W, C) image zero-padded to a multiple of P, each side short by `pad` given
    `split(pad)` (before, after): at the bottom and right by default (as it is when P is no
    positive integer: the tiling test refuses it after)."""
    try:
        P = check_patch_size(P)
    except (TypeError, ValueError):
        return image
    H, W = image.shape[:2]
    return np.pad(image, (split(-H % P), split(-W % P)) + ((0, 0),) * (image.ndim - 2))


def pad_evenly_to_tile(image, P):
    """Padded evenly, the odd row or column after (vintage-models' PatchConverter)."""
    return pad_to_tile(image, P, lambda pad: (pad // 2, pad - pad // 2))


def pad_evenly_first_to_tile(image, P):
    """Padded evenly, the odd row or column before."""
    return pad_to_tile(image, P, lambda pad: (pad - pad // 2, pad // 2))


def pad_top_left_to_tile(image, P):
    """Padded at the top and left."""
    return pad_to_tile(image, P, lambda pad: (pad, 0))


# detail -> (how the image is padded, to a multiple of {P}; the padding function)
PADS = {
    "image-padded-to-tile": ("at the bottom and right to a multiple of {P} before it is cut, as "
                             "some libraries do (timm's dynamic_img_pad, Swin's `F.pad`)",
                             pad_to_tile),
    "image-padded-evenly-to-tile": (
        "evenly on both sides, the odd row or column at the bottom or right, to a multiple of "
        "{P} before it is cut, as some libraries do (vintage-models' PatchConverter)",
        pad_evenly_to_tile),
    "image-padded-evenly-first-to-tile": (
        "evenly on both sides, the odd row or column at the top or left, to a multiple of {P} "
        "before it is cut", pad_evenly_first_to_tile),
    "image-padded-top-left-to-tile": ("at the top and left to a multiple of {P} before it is "
                                      "cut", pad_top_left_to_tile),
}
# the padding where the calls cannot tell its place (every place returns their values: a blank
# image, zero weights): named by checks/kinds/refusals.py only where several places reproduce
UNPLACED = "image-padded-to-tile-somewhere"
PADS[UNPLACED] = ("to a multiple of {P} before it is cut (where the zeros go, these calls do not "
                  "tell: they give the same values on any side)", pad_to_tile)


@functools.lru_cache(maxsize=256)
def tested_patch_size(function: ast.FunctionDef) -> ast.AST | None:
    """P of the function's own `check_tiling(H, W, P)` call, else None."""
    for sub in ast.walk(function):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                and sub.func.id == TESTED and len(sub.args) == 3):
            return sub.args[2]
    return None


def padded(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image zero-padded to a multiple of P before it is cut: `as_hwc(image)` padded, in a
    function that tests the tiling itself."""
    P = tested_patch_size(context.instance.node) if near_checked(context) else None
    if (P is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name)
            or not node.func.id.startswith((IMAGE, f"{PREFIX}{IMAGE}"))):
        return
    for detail, (how, pad) in PADS.items():
        bound, said = f"{PREFIX}{pad.__name__}", how.format(P=f"`{code(P)}`")
        yield Change(detail,
                     f"In {where(context)}, the image is zero-padded {said}, so a size that P "
                     f"does not tile gets patches of the padded image; the "
                     f"lecture's patches tile the image as it is: raise ValueError instead of "
                     f"padding.",
                     lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), [n, P], []),
                     names=((bound, pad),))


def stacked(image, P):
    """A 4-D array (B, H, W, C) as its images one below the other, (B * H, W, C), once P is
    known to tile each: its patches are each image's, one image after the other; any other
    array as the reference reads it (as_hwc)."""
    image = np.asarray(image)
    if image.ndim != 4:
        return as_hwc(image)
    check_tiling(image.shape[1], image.shape[2], P)
    return image.reshape(-1, *image.shape[2:])


def batched(context: Context, node: ast.AST) -> Iterator[Change]:
    """A 4-D array taken as a batch of images: `as_hwc(image)` stacking them, in a function
    that tests the tiling itself."""
    P = tested_patch_size(context.instance.node) if near_checked(context) else None
    if (P is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name)
            or not node.func.id.startswith((IMAGE, f"{PREFIX}{IMAGE}"))):
        return
    bound = f"{PREFIX}stacked"
    yield Change("4d-as-batch",
                 f"In {where(context)}, a 4-D array is taken as a batch of images (B, H, W, C) "
                 f"and the patches of all of them are returned, one image after the other, as "
                 f"code written for a batch gives them (MAE's patchify, timm's PatchEmbed); the "
                 "model solution's function takes one image, (H, W) or (H, W, C): raise "
                 "ValueError for any other shape.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [*n.args[:1], P], []),
                 names=((bound, stacked),))


@functools.lru_cache(maxsize=256)
def _grid_sides(node: ast.AST) -> tuple[ast.AST, ast.AST, ast.AST] | None:
    """(H, W, P) of a returned `(H // P) * (W // P)`, else None."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    left, right = node.left, node.right
    if not all(isinstance(side, ast.BinOp) and isinstance(side.op, ast.FloorDiv)
               for side in (left, right)):
        return None
    if ast.dump(left.right) != ast.dump(right.right):
        return None
    return left.left, right.left, left.right


def _returned_grid(context: Context, node: ast.AST) -> tuple | None:
    """(H, W, P) of `node` where it is a `(H // P) * (W // P)` the checked function returns."""
    sides = _grid_sides(node)
    return sides if sides is not None and id(node) in returned(context.instance.node) else None


# where a count by area's sentence gives its example (`with_area_example`): one size the
# student's code returned a count for, never a fixed one (b54_02: "a 6x6 image with P = 4" was
# told of a function whose area test refuses 6x6)
AGREES = "add up to less than one patch"
AREA_EXAMPLE = re.compile(r" \(an? \d+ x \d+ image with P = \d+ counts \d+ by area, \d+ by rows "
                          r"and columns\)")


def with_area_example(hint: str, sizes) -> str:
    """`hint` (a count by area's) with an example after AGREES: the first of `sizes` ((H, W,
    P) the student's code returned a count for, as the rewrite that names it does) whose count
    by area differs from the rows times the columns; as it is, no example, when none does."""
    for H, W, P in sizes:
        area, grid = H * W // (P * P), (H // P) * (W // P)
        if area != grid and AGREES in hint:
            return hint.replace(AGREES, f"{AGREES} ({article(H)} {H} x {W} image with P = {P} "
                                        f"counts {area} by area, {grid} by rows and columns)", 1)
    return hint


def count_by_area(context: Context, node: ast.AST) -> Iterator[Change]:
    """A returned `(H // P) * (W // P)` counted by area: `H * W // (P * P)`."""
    sides = _returned_grid(context, node)
    if sides is None:
        return
    H, W, P = sides
    written = f"{code(H)} * {code(W)} // ({code(P)} * {code(P)})"
    yield Change("count-by-area",
                 f"In {where(context)}, the patches are counted by area (N = HW / P**2), "
                 f"{EFFECT}`{written}`, where the lecture counts the rows of patches times the "
                 f"columns, `{code(node)}`: the two agree where P divides both sides, and "
                 f"elsewhere only where the pixels the whole patches leave over {AGREES}.",
                 lambda n: ast.BinOp(ast.BinOp(H, ast.Mult(), W), ast.FloorDiv(),
                                     ast.BinOp(P, ast.Mult(), P)))


def true_division(context: Context, node: ast.AST) -> Iterator[Change]:
    """A returned `(H // P) * (W // P)` written with true division, `(H / P) * (W / P)` (ViT
    FLOPs scripts' `n_patches = (h / patch_size) * (w / patch_size)`, the lecture's H/P x W/P
    typed as it reads): a float, and where P does not tile a side, a fraction of a patch counted.
    Alone it is named as a float count (counts.py); tried by `named_refusal` only as a pair's
    second part, after a tiling test that lets such a size through (AFTER_REFUSAL)."""
    sides = _returned_grid(context, node)
    if sides is None:
        return
    H, W, P = sides
    written = f"({code(H)} / {code(P)}) * ({code(W)} / {code(P)})"
    yield Change("count-by-true-division",
                 f"In {where(context)}, the patches are counted with true division, {EFFECT}"
                 f"`{written}`: the count comes out as a float, and where P does not divide a "
                 f"side, a fraction of a patch is counted (7 / 2 = 3.5 rows). The lecture "
                 f"counts whole patches in integers, `{code(node)}`, once the tiling is tested.",
                 lambda n: ast.BinOp(ast.BinOp(H, ast.Div(), P), ast.Mult(),
                                     ast.BinOp(W, ast.Div(), P)))


def tested_on_last_two(image, P):
    """The image read as the reference reads it (as_hwc), once a tiling test on the sizes of its
    array's last two axes, as it was given, passed (torch's (C, H, W) habit, `H, W =
    x.shape[-2:]`): the reference's ValueError for those sizes, else its own tests after."""
    shape = np.shape(image)
    if len(shape) >= 2:
        check_tiling(*shape[-2:], P)
    return as_hwc(image)


def last_two(context: Context, node: ast.AST) -> Iterator[Change]:
    """The tiling test made on the image array's last two axes, as given: `H, W =
    image.shape[-2:]` (torch's (C, H, W) habit: Brian Pulfer's ViT tutorial, the
    `x.unfold(2, p, p).unfold(3, p, p)` answers) on a channels-last image tests the width and
    the channels. `as_hwc(image)` tested so first, in a function that tests the tiling itself
    (its own `check_tiling` after still tests H and W)."""
    P = tested_patch_size(context.instance.node) if near_checked(context) else None
    if (P is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name)
            or not node.func.id.startswith((IMAGE, f"{PREFIX}{IMAGE}")) or not node.args):
        return
    bound = f"{PREFIX}tested_on_last_two"
    yield Change("last-two-axes",
                 f"In {where(context)}, the sizes P must tile are read from the image's last "
                 f"two axes, `H, W = image.shape[-2:]` (torch's (C, H, W) habit): on an (H, W, "
                 f"C) image those are the width and the channels, so an RGB image is refused "
                 f"whenever P does not divide 3. The lecture's images are channels last: `H, W "
                 f"= image.shape[:2]`.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [*n.args[:1], P], []),
                 names=((bound, tested_on_last_two),))


def crop_to_tile(image, P, refused_empty: bool = False):
    """The (H, W, C) image with its last rows and columns that P x P patches do not cover
    dropped, `image[:H // P * P, :W // P * P]` (as it is when P is no positive integer);
    `refused_empty`: ValueError where no patch fits (`ph, pw = h // p, w // p; if ph == 0 or pw
    == 0: raise ValueError`), else an empty image."""
    try:
        P = check_patch_size(P)
    except (TypeError, ValueError):
        return image
    H, W = np.shape(image)[:2]
    if refused_empty and (H < P or W < P):
        raise ValueError(f"patch size {P} is larger than the {H}x{W} image")
    return image[:H // P * P, :W // P * P]


def _grid_cut(node: ast.AST, P: ast.AST) -> bool:
    """Whether `node` is the cut of an array into its P x P grid, `x.reshape(H // P, P, W // P,
    P, C)`."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and len(node.args) == 5
            and ast.dump(node.args[1]) == ast.dump(P) == ast.dump(node.args[3]))


def cropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image cropped to the P x P patches that fit before its grid is cut (a kernel = stride
    = P convolution's floor, timm's `strict_img_size=False`), in a function that tests the
    tiling itself: where that test lets a size through (one side only, none), its last rows or
    columns are dropped. Alone it changes nothing (the test refuses such sizes first): tried by
    `named_refusal` only as a pair's second part, after a tiling test (AFTER_REFUSAL)."""
    P = tested_patch_size(context.instance.node) if near_checked(context) else None
    if P is None or not _grid_cut(node, P):
        return
    bound = f"{PREFIX}crop_to_tile"
    yield Change("image-cropped-to-tile",
                 f"In {where(context)}, the image is cropped to the patches that fit before it "
                 f"is cut (its last rows and columns dropped, as a convolution with kernel = "
                 f"stride = `{code(P)}` floors them), so a size P does not tile that nothing "
                 f"refuses first gets the patches of its top-left part; the lecture's patches "
                 f"tile the image as it is: raise ValueError instead of cropping.",
                 lambda n: ast.Call(ast.Attribute(ast.Call(ast.Name(bound, ast.Load()), [
                     n.func.value, P], []), "reshape", ast.Load()), n.args, n.keywords),
                 names=((bound, crop_to_tile),))
    yield Change("image-cropped-to-tile-none-fitting-refused",  # JAX k-means' `patchify`
                 f"In {where(context)}, the image is cropped to the patches that fit before it "
                 f"is cut (its last rows and columns dropped, as a convolution with kernel = "
                 f"stride = `{code(P)}` floors them), so a size P does not tile that nothing "
                 f"refuses first gets the patches of its top-left part (only an image with no "
                 f"whole patch is refused); the lecture's patches tile the image as it is: raise "
                 f"ValueError instead of cropping.",
                 lambda n: ast.Call(ast.Attribute(ast.Call(ast.Name(bound, ast.Load()), [
                     n.func.value, P, ast.Constant(True)], []), "reshape", ast.Load()), n.args,
                     n.keywords),
                 names=((bound, crop_to_tile),))


OPERATORS = {"tiling": tiling, "padded": padded, "batched": batched,
             "count_by_area": count_by_area, "last_two": last_two, "cropped": cropped,
             "true_division": true_division}
# the operators whose edits `checks/kinds/refusals.py` weighs on a function's refusal cases
REFUSAL_OPERATORS = ("tiling", "padded", "batched", "last_two")
AFTER_REFUSAL = ("count_by_area", "cropped", "true_division")  # ... each paired with one of those
