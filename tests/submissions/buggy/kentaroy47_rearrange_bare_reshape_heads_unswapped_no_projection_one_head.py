"""Blind round 59 (b59_04, issue 38): patchify and self_attention ported from
kentaroy47/vision-transformers-cifar10 (`minvit_cifar10.py`'s simplified einops Rearrange;
`models/vit.py`'s Attention, with `project_out = not (heads == 1 and dim_head == dim)`). The
student's top-level `Rearrange` class is nested in patchify here: the builder replaces only the
solution's own definitions.

Mistakes:
6. patchify via `Rearrange.__call__` (line 45 of the file as delivered): minvit's Rearrange
   stand-in is a bare `x.reshape(-1, p1*p2*c)`, so rows are runs of consecutive pixels, not
   P x P tiles. Wrong for any image with more than one patch per row (W > P); linear_patch_embed,
   embed_image and vit_forward inherit it.
7. self_attention (line 118): einops' `'n (h d) -> h n d'` hand-ported as
   `t.reshape(heads, n, dim_head)`, no transpose. Wrong only with heads > 1.
8. self_attention (lines 113/126): the source's `project_out` skips `Wo, bo` whenever
   heads == 1. Wrong only with heads == 1 (then also in encoder_block and vit_forward).

Grader: at blind time (528b2ec3) and now, 86/110, all three named. Mistake 6 on patchify
("image.reshape(N, P*P*C) takes consecutive pixels along a row, not P x P tiles ..."), mistake 7
on multi-head-attention ("... is done with a reshape alone, `x.reshape(*lead, heads, T, d //
heads)`"), mistake 8 ("the last step is skipped when `heads` is 1 ... lucidrains' `project_out`
..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_bare_reshape',
          'multi-head-attention': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1',
          'no-causal-mask': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1+'
                            'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def patchify(image, P):
    class Rearrange:
        """einops' Rearrange, kept simple (as in minvit_cifar10.py)."""

        def __init__(self, pattern, **axes_lengths):
            self.pattern = pattern
            self.axes_lengths = axes_lengths

        def __call__(self, x):
            return x.reshape(-1, self.axes_lengths['p1'] * self.axes_lengths['p2'] * x.shape[-1])

    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    num_patches(img.shape[0], img.shape[1], P)
    to_patch = Rearrange('(h p1) (w p2) c -> (h w) (p1 p2 c)', p1=P, p2=P)
    return to_patch(img)


def self_attention(x, p, heads, causal=False):
    """Attention.forward with inner_dim = dim_head * heads = dim."""
    n, dim = x.shape
    if dim % heads != 0:
        raise ValueError("dim must be divisible by heads")
    dim_head = dim // heads
    project_out = not (heads == 1 and dim_head == dim)
    scale = dim_head ** -0.5

    qkv = (x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"])
    # rearrange(t, 'n (h d) -> h n d')
    q, k, v = map(lambda t: t.reshape(heads, n, dim_head), qkv)
    dots = np.matmul(q, k.transpose(0, 2, 1)) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)
    out = np.matmul(attn, v)
    # rearrange(out, 'h n d -> n (h d)')
    out = out.transpose(1, 0, 2).reshape(n, heads * dim_head)
    if project_out:
        out = out @ p["Wo"] + p["bo"]
    return out
