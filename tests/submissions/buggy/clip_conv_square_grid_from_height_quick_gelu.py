"""Blind round 17 (b17_01, issue 38): conv_patch_embed and gelu ported from OpenAI CLIP's
model.py VisionTransformer (conv1 with `grid = input_resolution // patch_size`, QuickGELU).

Mistakes:
1. conv_patch_embed computes the output grid once, `grid = (H - k) // stride + 1`, and uses it for
   both sides: the output width comes from the height (shows only on non-square images).
2. gelu is CLIP's QuickGELU, x * sigmoid(1.702 x), instead of GELU. encoder_block calls it;
   encoder_block itself is the student's CLIP ResidualAttentionBlock, the solution's in all but
   spelling, listed here only so that its exercise may lose points (no `uses:` line names gelu).
The student's `_to_hwc` helper (the solution's `_as_hwc` in all but its message) is called as
`_as_hwc` here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, both named (the output's columns counted from H; CLIP's quick GELU
in encoder_block's MLP); vit-checkpoint observes the broken encoder_block. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def conv_patch_embed(image, K, b, stride):
    """CLIP conv1 (Conv2d, kernel = stride = patch_size) as a loop; grid = input_resolution // P."""
    x = _as_hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    grid = (H - k) // stride + 1
    width = K.shape[-1]
    out = np.zeros((grid, grid, width))
    for i in range(grid):
        for j in range(grid):
            patch = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("hwc,hwcd->d", patch, K)
    return out + b


def gelu(x):
    """CLIP's QuickGELU: x * torch.sigmoid(1.702 * x)."""
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))


def encoder_block(x, p, heads):
    """CLIP ResidualAttentionBlock: ln_1, attn, residual; ln_2, c_fc, QuickGELU, c_proj."""
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x
