"""Blind round 79 (b79_10, issue 38): patchify and self_attention ported from
nobu5563/syokai-deeplearning `6/layers/ScaledDotProductAttention.py` (einsum 'ijk,ilk->ijl', a
`scaler` argument).

Mistakes:
1. self_attention (line 102 of the file as delivered): `scaler = np.sqrt(d_model)`, the model
   width, instead of sqrt(d_h): right with one head only.
2. patchify (lines 23-41: `_chw` and line 40): the image read as (C, H, W), each patch
   flattened channel first, (c, p1, p2), instead of (p1, p2, c): right on one channel only.
The delivered file's top-level helpers `_chw` and `scaled_dot_product_attention` are nested in
patchify and self_attention here.

Grader: at blind time (50c6c808) and now, 91/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)") and no-causal-mask ("the scores are
divided by sqrt(d), the model width, instead of sqrt(d_h)"; the judge notes it points at line 111,
`out = scaled_dot_product_attention(q, k, v, scaler, mask)`, where the value is set at line 102;
now, report/root_line.py, at both: "In `self_attention` (at your line `out =
scaled_dot_product_attention(q, k, v, scaler, mask)`), the scores are divided by sqrt(d) (at your
line `scaler = np.sqrt(d_model)`), the model width, ..."), mistake 2 on patchify ("You flattened
each patch channel first, (c, p1, p2)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def patchify(image, P):
    def _chw(image):
        # (H, W, C) -> (C, H, W)
        x = np.asarray(image, dtype=float)
        if x.ndim == 2:
            x = x[None, :, :]
        elif x.ndim == 3:
            x = x.transpose(2, 0, 1)
        else:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _chw(image)
    C, H, W = x.shape
    num_patches(H, W, P)
    # (C, H, W) -> (C, H/P, P, W/P, P) -> (H/P, W/P, C, P, P)
    x = x.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)
    return x.reshape(-1, C * P * P)


def self_attention(x, p, heads, causal=False):
    def scaled_dot_product_attention(q, k, v, scaler, mask=None):
        # q, k, v: (heads, T, d_k)
        score = np.einsum('ijk,ilk->ijl', q, k) / scaler
        if mask is not None:
            score = np.where(mask, -np.inf, score)
        a = softmax(score, axis=-1)
        return np.einsum('ijl,ilk->ijk', a, v)

    T, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by heads")
    d_k = d_model // heads
    scaler = np.sqrt(d_model)

    q = (x @ p['Wq'] + p['bq']).reshape(T, heads, d_k).transpose(1, 0, 2)
    k = (x @ p['Wk'] + p['bk']).reshape(T, heads, d_k).transpose(1, 0, 2)
    v = (x @ p['Wv'] + p['bv']).reshape(T, heads, d_k).transpose(1, 0, 2)

    mask = None
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool), k=1)[None]
    out = scaled_dot_product_attention(q, k, v, scaler, mask)
    out = out.transpose(1, 0, 2).reshape(T, d_model)
    return out @ p['Wo'] + p['bo']
