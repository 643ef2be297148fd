"""Blind round 25 (b25_08, issue 38): patchify and self_attention ported from Julia: Metalhead.jl's
ViT patch embedding on WHCN arrays (the image's first dimension is its width: `reshape(x, P, W ÷
P, P, H ÷ P, C)`), and NNlib.jl's `dot_product_attention` (logits laid out (kv_len, q_len),
`make_causal_mask(x) = triu(trues_like(x, (len, len)))`).

Mistakes:
1. patchify cuts the grid width first, `image.reshape(W // P, P, H // P, P, C)`, on a numpy
   (H, W, C) image: right on square images, scrambled on others.
2. self_attention keeps NNlib's triu mask, causal in NNlib's (key, query) layout, on (query, key)
   scores: token i sees tokens i..T-1.

Grader: at blind time and now, both named: `H // P` and `W // P` the other way round on patchify,
and "Your mask is upside down" on no-causal-mask. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'no-causal-mask': 'attention_mask_transposed'}


def patchify(image, P):
    """Metalhead-style patch cut, ported to numpy."""
    image = _as_hwc(image)
    H, W, C = image.shape
    if H % P != 0 or W % P != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    grid = image.reshape(W // P, P, H // P, P, C)
    grid = grid.transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def self_attention(x, p, heads, causal=False):
    """NNlib.dot_product_attention, with (T, d) numpy rows."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    q = q / math.sqrt(d_h)
    logits = q @ k.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool))
        logits = np.where(mask, logits, -np.inf)
    alpha = softmax(logits, axis=-1)
    out = alpha @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
