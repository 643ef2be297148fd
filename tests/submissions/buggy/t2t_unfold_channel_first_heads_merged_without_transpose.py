"""Blind round 20 (b20_04, issue 38): patchify and self_attention ported from
yitu-opensource/T2T-ViT (models/t2t_vit.py, token_transformer.py: the soft split with nn.Unfold
giving (B, C*k*k, L) then `.transpose(1, 2)`, Attention's `qkv.reshape(B, N, 3, num_heads,
head_dim).permute(2, 0, 3, 1, 4)` with a batch axis kept). The student's top-level helpers
`_unfold` and `_chw` are nested in patchify here: the builder replaces only the solution's own
definitions.

Mistakes:
1. patchify flattens each patch in nn.Unfold's order (c, p1, p2), channel first, instead of
   (p1, p2, c): wrong only with more than one channel.
2. self_attention merges the heads with `(attn @ v).reshape(B, N, C)` without the
   `transpose(1, 2)` that brings the token axis before the head axis: wrong only with heads > 1.

Grader: at blind time and now, both named: patchify_channel_first, and at blind time
"`x.swapaxes(-2, -3)` is used without its transpose" (now: "the heads' outputs are merged by a
reshape without moving the head axis back first ...") on no-causal-mask and multi-head-attention;
why-positions gets its equivariance checklist (ALIASES); vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def patchify(image, P):
    def _unfold(x, k, stride):
        """nn.Unfold on one (C, H, W) image: (C*k*k, L), L = number of windows, raster order."""
        C, H, W = x.shape
        Lh = (H - k) // stride + 1
        Lw = (W - k) // stride + 1
        cols = np.empty((C * k * k, Lh * Lw), dtype=x.dtype)
        l = 0
        for i in range(Lh):
            for j in range(Lw):
                cols[:, l] = x[:, i * stride:i * stride + k, j * stride:j * stride + k].reshape(-1)
                l += 1
        return cols

    def _chw(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[None]
        elif x.ndim == 3:
            x = x.transpose(2, 0, 1)
        else:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _chw(image)
    C, H, W = x.shape
    num_patches(H, W, P)
    return _unfold(x, P, P).T          # soft_split(x).transpose(1, 2)


def self_attention(x, p, heads, causal=False):
    x = x[None]                       # keep the batch axis B of the torch code
    B, N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    W = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ W + bias).reshape(B, N, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ np.swapaxes(k, -2, -1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) == 0, -np.inf, attn)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).reshape(B, N, C)
    x = x @ p["Wo"] + p["bo"]
    return x[0]
