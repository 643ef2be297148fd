"""Blind round 71 (b71_01, issue 38): patchify and self_attention (with its `compute_mhsa`)
ported from The-AI-Summer/self-attention-cv `self_attention_cv/vit/vit.py` (and
`transformer_vanilla/mhsa.py`).

Mistakes:
1. patchify (lines 55-59 of the file as delivered): the source's einops pattern
   `'b c (patch_x x) (patch_y y) -> b (x y) (patch_x patch_y c)'` written as
   `img.reshape(P, H // P, P, W // P, C).transpose(1, 3, 0, 2, 4)`: the patch factor is the
   outer one, so each "patch" gathers pixels strided by H/P and W/P instead of a contiguous
   P x P block. Wrong on every image with more than one patch.
2. self_attention (line 136): heads split with the source's `'t (d h) -> h t d'`
   (`reshape(T, d_h, heads).transpose(2, 0, 1)`): head h takes columns h, h + heads, ...
   instead of h*d_h:(h+1)*d_h, while the merge is the contiguous `'h t d -> t (h d)'`. Wrong
   with heads > 1 only, causal or not.
The delivered file's top-level helpers `_to_hwc` and `compute_mhsa` are nested here.

Grader: at blind time (3f040026) and now, 88/110. Mistake 1 named on patchify (at blind time "In
`patchify`, ... `image.reshape(H // P, P, W // P, P, C)` splits `H` and `W` into blocks the other
way round, as (P, H // P) instead of (H // P, P) (einops' `(p1 h)` for `(h p1)`)"; now: "In
`patchify`, the model solution's `image.reshape(H // P, P, W // P, P, C)` splits `H` and `W` into
blocks the other way round, as (P, H // P) instead of (H // P, P), as some code does (einops' `(p1
h)` for `(h p1)`) ..."); mistake 2 named on multi-head-attention and no-causal-mask ("In
`self_attention` ... `x.reshape(*lead, T, d // heads, heads).swapaxes(-1, -2)`: each of the `heads`
groups takes every `heads`-th element (interleaved)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:blocks:patchify:H-W-split-swapped',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def patchify(image, P):
    def _to_hwc(img):
        img = np.asarray(img, dtype=float)
        if img.ndim == 2:
            img = img[..., None]
        if img.ndim != 3:
            raise ValueError('expected an (h, w) or (h, w, c) image')
        return img

    img = _to_hwc(image)
    h, w, c = img.shape
    num_patches(h, w, P)
    # from [h, w, c] to [tokens, N], N=p*p*c, tokens = h/p * w/p
    # 'h w c' = '(patch_x x) (patch_y y) c -> (x y) (patch_x patch_y c)'
    x, y = h // P, w // P
    img_patches = img.reshape(P, x, P, y, c)
    img_patches = img_patches.transpose(1, 3, 0, 2, 4)
    return img_patches.reshape(x * y, P * P * c)


def self_attention(x, p, heads, causal=False):
    def compute_mhsa(q, k, v, scale_factor=1, mask=None):
        # resulted shape will be: [heads, tokens, tokens]
        scaled_dot_prod = np.einsum('... i d , ... j d -> ... i j', q, k) * scale_factor
        if mask is not None:
            assert mask.shape == scaled_dot_prod.shape[-2:]
            scaled_dot_prod = np.where(mask, -np.inf, scaled_dot_prod)
        attention = softmax(scaled_dot_prod, axis=-1)
        # calc result per head
        return np.einsum('... i j , ... j d -> ... i d', attention, v)

    t, dim = x.shape
    if dim % heads != 0:
        raise ValueError('dim must be divisible by heads')
    dim_head = dim // heads
    scale_factor = dim_head ** -0.5

    q = x @ p['Wq'] + p['bq']
    k = x @ p['Wk'] + p['bk']
    v = x @ p['Wv'] + p['bv']
    # decomposition to heads: 't (d h) -> h t d'
    q, k, v = (a.reshape(t, dim_head, heads).transpose(2, 0, 1) for a in (q, k, v))

    mask = np.triu(np.ones((t, t), dtype=bool), k=1) if causal else None
    out = compute_mhsa(q, k, v, scale_factor=scale_factor, mask=mask)
    # 'h t d -> t (h d)'
    out = out.transpose(1, 0, 2).reshape(t, heads * dim_head)
    return out @ p['Wo'] + p['bo']
