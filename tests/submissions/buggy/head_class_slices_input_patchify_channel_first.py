"""Blind round 3 (b3_12, issue 38), a port with two mistakes: self_attention with a small Head class,
one object per head, slices the input as well as the weights (q = x[:, lo:hi] @ Wq[lo:hi, lo:hi]
+ bq[lo:hi], a block-diagonal projection) instead of q = x @ Wq[:, lo:hi] + bq[lo:hi] (right
with heads=1: observed as such); patchify as einops '(h p1) (w p2) c -> (h w) (c p1 p2)' flattens
each patch channel first (right for one channel).
(The submission's module-level helpers are nested in the function that uses them
here: a fixture replaces only the solution's names.)
Since session 15 the block-diagonal projection is named on no-causal-mask and
multi-head-attention (fused.own_slices: each head's q, k, v from its own slice of the token with
the diagonal block of the weights) instead of observed as right with one head: every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'no-causal-mask': 'op:own_slices:self_attention:heads-own-slices',
          'multi-head-attention': 'op:own_slices:self_attention:heads-own-slices'}


def patchify(image, P):
    """rearrange(image, '(h p1) (w p2) c -> (h w) (c p1 p2)')."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.reshape(H // P, P, W // P, P, C)     # h p1 w p2 c
    x = x.transpose(0, 2, 4, 1, 3)                 # h w c p1 p2
    return x.reshape((H // P) * (W // P), C * P * P)


def self_attention(x, p, heads, causal=False):
    """Multi-head attention: run every head, concatenate, project."""
    class _Head:
        """One attention head: its slice lo:hi of the projections."""

        def __init__(self, p, lo, hi):
            self.p, self.lo, self.hi = p, lo, hi

        def __call__(self, x, causal):
            lo, hi, p = self.lo, self.hi, self.p
            xh = x[:, lo:hi]
            q = xh @ p["Wq"][lo:hi, lo:hi] + p["bq"][lo:hi]
            k = xh @ p["Wk"][lo:hi, lo:hi] + p["bk"][lo:hi]
            v = xh @ p["Wv"][lo:hi, lo:hi] + p["bv"][lo:hi]
            scores = q @ k.T / math.sqrt(hi - lo)
            if causal:
                T = x.shape[0]
                scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
            return softmax(scores, axis=-1) @ v

    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide d = {d}")
    dh = d // heads
    outs = [_Head(p, h * dh, (h + 1) * dh)(x, causal) for h in range(heads)]
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
