"""Blind round 7 (b7_06, issue 38): conv_patch_embed after CS231n's conv_forward_naive loops,
conv_equivalent with overlapping patches, and a tanh-GELU typo in encoder_block.

Mistakes:
1. conv_patch_embed: the window loops run over range(0, H - k, stride) (and W likewise) instead
   of range(0, H - k + 1, stride), so when (H - k) is a multiple of stride the last output row
   (or column) is never computed and stays 0 (no bias either). Shows when (H - k) % stride == 0
   or (W - k) % stride == 0 (e.g. stride 1, or kernel = stride = P tiling); right otherwise.
2. conv_equivalent: returns (P, P // 2), overlapping patches as in overlapping patch embeddings
   (PVT v2 / CvT). Shows always.
3. encoder_block: tanh GELU written with x**2 instead of x**3, 0.5 x (1 + tanh(sqrt(2/pi) (x +
   0.044715 x**2))) (a misread of the Horner form in hendrycks/GELUs#1). Shows always (small but
   well above rounding).

Grader: the loop range and the x**2 are named. conv_equivalent's (P, P // 2) gets no hint at all
(the check shows expected (16, 16), got (16, 8); "random patch sizes [hidden]" fails with no
hint).
Since the eleventh session conv_equivalent's (P, P // 2) is named too: every mistake is.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_range:conv_patch_embed:windows-range-one-short',
          'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.power-3-as-2'}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    HH, WW, _, F = K.shape
    if HH > H or WW > W:
        raise ValueError("filter larger than input")
    H_out = 1 + (H - HH) // stride
    W_out = 1 + (W - WW) // stride
    out = np.zeros((H_out, W_out, F))
    for i, r in enumerate(range(0, H - HH, stride)):
        for j, c in enumerate(range(0, W - WW, stride)):
            window = x[r:r + HH, c:c + WW, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out


def conv_equivalent(P):
    return (P, P // 2)


def encoder_block(x, p, heads):
    def gelu_tanh(z):
        return 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 2)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu_tanh(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
