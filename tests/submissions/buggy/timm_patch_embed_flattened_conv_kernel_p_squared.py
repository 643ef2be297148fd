"""Blind round 16 (b16_04, issue 38): conv_patch_embed and conv_equivalent ported from timm's
PatchEmbed (Conv2d proj, then `x.flatten(2).transpose(1, 2)`, flatten=True).

Mistakes:
1. conv_patch_embed returns the tokens flattened, (H' W', d), instead of the (H', W', d) map.
2. conv_equivalent returns (P * P, P), the kernel as a patch's pixel count, instead of (P, P).

Grader: at blind time and now, the flattened map gets no hint (only the message's "same number of
values, different shape" diff line) and conv_equivalent the kernel-stride checklist. Nothing named.
Since the eleventh session conv_equivalent's (P * P, P) is named (a side as its area); the flattened
convolution output is named too (a grid returned flattened to rows): every mistake is.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:tuple_parts:conv_equivalent:part-1-area'}


def conv_patch_embed(image, K, b, stride):
    """timm PatchEmbed: proj = Conv2d(C, d, k, stride); x = proj(x).flatten(2).transpose(1, 2)."""
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Hp, Wp = (H - k) // stride + 1, (W - k) // stride + 1
    d = K.shape[-1]
    out = np.empty((Hp, Wp, d))
    Kf = K.reshape(-1, d)
    for i in range(Hp):
        for j in range(Wp):
            win = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = win.reshape(-1) @ Kf + b
    return out.reshape(Hp * Wp, d)  # flatten(2).transpose(1, 2)


def conv_equivalent(P):
    """(kernel_size, stride): the kernel covers the P*P pixels of a patch."""
    return (P * P, P)
