"""Blind round 82 (b82_06, issue 38): patchify and self_attention ported from
KiLJ4EdeN/img_to_patch `README.md` (im2patch with nseg). The delivered file's top-level helper
`_to_hwc` is nested in patchify here.

Mistakes:
1. patchify (lines 40-41 of the file as delivered): the image split into `H // P` x `W // P`
   equal strips with np.split and no tiling test: where P does not tile but the image divides
   evenly into that many strips (8 x 10 with P = 4: 2 strips of 5) no ValueError is raised and
   the patches are 4 x 5, not P x P. Tiling images are right.
2. self_attention (lines 102-104 and 112): heads split as `reshape(T, head_dim, heads)`, so
   head h takes the columns h, h + heads, ... (interleaved) instead of the block h*d_h:(h+1)*d_h.
   Wrong with heads > 1 only (encoder_block and vit_forward inherit it).

Grader: at blind time (ee59f1b1) and now, 94/110. Mistake 2 named on multi-head-attention and
no-causal-mask ("Your heads take interleaved columns (h, h + heads, ...) ... reshape(T, heads,
d_h), not reshape(T, d_h, heads)"). Mistake 1 observed only: "Your `patchify` returned 2 patches
of 1440 values each for a 30 x 32 x 3 image with P = 16 ... raise ValueError when P does not
divide H or W", the fix without the cause (no tiling test, strips of H // P and W // P). Since
be33fb83 (error_model/equal_blocks.py, paired with the missing tiling test), mistake 1 is named on
both failed patchify checks: "there is no tiling test ... Then the image is cut into `H // P` by
`W // P` equal blocks (`np.split` into that many parts ...)"; every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:tiling:patchify:none+op:equal_blocks:patchify:equal-blocks',
          'multi-head-attention': 'attention_heads_interleaved',
          'no-causal-mask': 'attention_heads_interleaved'}
ALIASES = ('op:heads_interleaved:self_attention:heads-interleaved-split-and-merge',)  # mistake 2


def patchify(image, P):
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    image = _to_hwc(image)
    H, W, C = image.shape
    nseg_h, nseg_w = H // P, W // P
    if nseg_h == 0 or nseg_w == 0:
        raise ValueError("patch larger than image")
    patches = []
    for strip in np.split(image, nseg_h, axis=0):
        for patch in np.split(strip, nseg_w, axis=1):
            patches.append(patch.flatten())
    return np.array(patches)


def self_attention(x, p, heads, causal=False):
    num_tokens, d_out = x.shape
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    queries = queries.reshape(num_tokens, head_dim, heads).transpose(2, 0, 1)
    keys = keys.reshape(num_tokens, head_dim, heads).transpose(2, 0, 1)
    values = values.reshape(num_tokens, head_dim, heads).transpose(2, 0, 1)

    attn_scores = queries @ keys.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attn_scores = np.where(mask[None], -np.inf, attn_scores)

    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)
    context_vec = (attn_weights @ values).transpose(1, 2, 0).reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]
