"""Blind round 31 (b31_04, issue 38): rstrudel/segmenter, segm/model/utils.py (`padding`, nested
in patchify), segm/model/blocks.py (Attention: fused qkv reshaped (N, 3, heads, d_h) and
permuted) and segm/model/vit.py (VisionTransformer.forward: norm, x[0], head); the attention and
forward are right (CORRECT).

Mistakes:
1. patchify: the image is zero-padded at the bottom and right up to a multiple of P, as
   Segmenter does, instead of raising ValueError (num_patches is the solution's and raises).
   Wrong on every size P does not tile; linear_patch_embed inherits it.
2. ANSWERS["positions"] = "resolution" (Segmenter resizes its position embeddings for other
   resolutions); the right answer is "permutation".

Grader: at blind time (fbf6cc7) and now, named: "In `patchify`, the image is zero-padded at the
bottom and right to a multiple of `P` before it is cut ... raise ValueError instead of padding"
on patchify; why-positions gives the "resolution" option's feedback. linear-patch-embed keeps
its points (the grader's patchify standing in). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-to-tile',
          'why-positions': 'positions:resolution'}
CORRECT = ('self_attention', 'vit_forward')  # Segmenter's Attention and forward, ported right


def patchify(image, P):
    """Flattened patches; the image is first padded to a multiple of P as Segmenter does."""

    def padding(im, patch_size, fill_value=0):
        # make the image sizes divisible by patch_size
        H, W = im.shape[0], im.shape[1]
        pad_h, pad_w = 0, 0
        if H % patch_size > 0:
            pad_h = patch_size - (H % patch_size)
        if W % patch_size > 0:
            pad_w = patch_size - (W % patch_size)
        im_padded = im
        if pad_h > 0 or pad_w > 0:
            im_padded = np.pad(im, ((0, pad_h), (0, pad_w), (0, 0)), constant_values=fill_value)
        return im_padded

    image = _as_hwc(image)
    image = padding(image, P)
    H, W, C = image.shape
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def self_attention(x, p, heads, causal=False):
    """Segmenter's Attention.forward for one image (no batch axis)."""
    N, C = x.shape
    if C % heads:
        raise ValueError(f"width {C} is not divisible by {heads} heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    qkv = qkv.reshape(N, 3, heads, C // heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.swapaxes(-2, -1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x


def vit_forward(image, params):
    """VisionTransformer.forward: embeddings, blocks, norm, then head(x[:, 0])."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]
    x = x @ params["W_head"] + params["b_head"]
    return x


ANSWERS["positions"] = "resolution"
