"""Blind round 21 (b21_09, issue 38): num_patches and conv_patch_embed ported from
bwconrad/flexivit (flexivit_pytorch: FlexiPatchEmbed, `to_2tuple`, grid sizes by floor division
since FlexiViT resizes to any patch size). The student's top-level imports
(`collections.abc`, `itertools.repeat`) and helpers `to_2tuple` and `_grid_size` are nested in
num_patches here: the builder replaces only the solution's own definitions.

Mistakes:
1. num_patches floors the grid (`img_size // patch_size` per side): no ValueError when P does not
   tile H or W.
2. conv_patch_embed's window starts run over `range(0, H - k, stride)`, an exclusive end one step
   short: the last window is lost whenever (H - k) is a multiple of stride (kernel = stride = P,
   or k == H), and the output is built from the rows the loops collected.

Grader: at blind time and now, the floor named (floor_division_count); the window loop not: the
two kernel-stride checks that fail on it have no hint line (only the shapes), and the K = W_e
check gives the generic checklist (round 21's fixes name b21_02's +1 inside the floor
division, not this short range). Not every mistake named, so in unnamed/.
Since session 14 the short range is named (windows.range_one_short, the output built from the
windows the loops collect): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'kernel-stride': 'op:window_range:conv_patch_embed:windows-range-one-short-collected'}


def num_patches(H, W, P):
    import collections.abc

    from itertools import repeat

    def to_2tuple(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, 2))

    def _grid_size(img_size, patch_size):
        img_size, patch_size = to_2tuple(img_size), to_2tuple(patch_size)
        if min(patch_size) <= 0:
            raise ValueError(f"patch size must be positive, got {patch_size}")
        return tuple(s // p for s, p in zip(img_size, patch_size))

    gh, gw = _grid_size((H, W), P)
    return gh * gw


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than input {H}x{W}")
    weight = K.reshape(k * k * C, -1)
    rows = []
    for top in range(0, H - k, stride):
        row = []
        for left in range(0, W - k, stride):
            row.append(x[top:top + k, left:left + k, :].reshape(-1) @ weight)
        rows.append(row)
    out = np.asarray(rows, dtype=float).reshape(len(rows), -1, weight.shape[1]) if rows and rows[0] else \
        np.zeros((len(rows), 0, weight.shape[1]))
    return out + b
