"""Blind round 24 (b24_03, issue 38): softmax, patchify and self_attention ported from Julia:
NNlib.jl's `softmax(x; dims = 1)`, a Julia `vec(patch)` patch flatten, and a Transformers.jl
features-first self_attention that builds (T_k, T_q) scores and relies on the softmax's default to
normalise over the keys.

Mistakes:
1. softmax defaults `axis` to 0 (NNlib's dims = 1) instead of -1.
2. patchify flattens each patch column-major, `patch.reshape(-1, order="F")`: (c, p2, p1).

Grader: at blind time both named, but vit-forward, whose code is the solution's, lost its 7 points
(the grader's softmax standing in broke the student's self_attention) and was blamed with its
checklist. Now both named: `grid.transpose(0, 2, 4, 3, 1)`, the order a column-major flatten reads,
on patchify, and `axis` defaulting to 0 on stable-softmax; vit-forward keeps its points (graded
again with the student's own softmax: tests/submissions/fair_callers/
features_first_attention_on_own_softmax_axis0_default.py, which keeps the student's
self_attention). Here the self_attention, correct with its own softmax and graded the same as the
solution's, is left out: this fixture is the two mistakes' names. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:axes_swapped:patchify:transpose-0-2-4-3-1',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for i in range(H // P):                 # for i in 1:H÷P, j in 1:W÷P
        for j in range(W // P):
            patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            rows.append(patch.reshape(-1, order="F"))      # vec(patch)
    return np.stack(rows)


def softmax(x, axis=0):
    """NNlib.softmax(x; dims = 1)."""
    x = np.asarray(x)
    max_ = np.max(x, axis=axis, keepdims=True)
    out = np.exp(x - max_)
    return out / np.sum(out, axis=axis, keepdims=True)
