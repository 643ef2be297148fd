"""Blind round 17 (b17_12, issue 38): patchify and layer_norm written in the style of fast.ai's
"from the foundations" notebooks (`sz` the image side; the plain-tensor LayerNorm class with
mult / add and `x.var(-1, keepdim=True)`).

Mistakes:
1. patchify takes the grid from one side, `sz = x.shape[0]; n = sz // P`, and reshapes the image
   as (n, P, n, P, c): a ValueError on every non-square image that tiles.
2. layer_norm uses the unbiased variance, `x.var(-1, ddof=1)` (torch's default), instead of ddof=0.
The student's module-level `class LayerNorm` is nested in layer_norm here: the builder replaces
only the solution's own definitions.

Grader: at blind time and now, both named (`W // P` reading H, a copy of its sibling term; the
unbiased variance). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H', 'layer-norm': 'layer_norm_unbiased'}


def patchify(image, P):
    """fast.ai style: `sz` the image side, n = sz // P patches a side."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected an image, got shape {x.shape}")
    num_patches(x.shape[0], x.shape[1], P)
    sz, c = x.shape[0], x.shape[-1]
    n = sz // P
    x = x.reshape(n, P, n, P, c).transpose(0, 2, 1, 3, 4)
    return x.reshape(n * n, P * P * c)


def layer_norm(x, gamma, beta, eps=1e-6):
    """The fast.ai LayerNorm class (mult, add), called once."""
    class LayerNorm:
        def __init__(self, mult, add, eps=1e-6):
            self.eps, self.mult, self.add = eps, mult, add

        def __call__(self, x):
            m = x.mean(-1, keepdims=True)
            v = x.var(-1, ddof=1, keepdims=True)
            x = (x - m) / np.sqrt(v + self.eps)
            return x * self.mult + self.add

    return LayerNorm(gamma, beta, eps)(x)
