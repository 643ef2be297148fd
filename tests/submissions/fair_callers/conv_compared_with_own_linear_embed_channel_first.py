"""Blind round 58's b58_14 (mmcv's PatchEmbed / nn.Unfold): `linear_patch_embed` flattens each
patch channel first, (c, p1, p2), and loses points in linear-patch-embed; `conv_patch_embed`
unfolds its windows the same way but reads K in that order too, so it is right. kernel-stride's
"kernel P, stride P equals the linear map" compares the student's convolution with the student's
own linear_patch_embed: it tests the convolution, so it is graded again with the grader's
linear_patch_embed standing in for the broken one (full points there)."""
# ruff: noqa: F821  (every other name is the solution's)


def linear_patch_embed(image, W_e, b_e, P):
    x = _as_hwc(image)
    H, W, _ = x.shape
    num_patches(H, W, P)
    cols = np.stack([x[i:i + P, j:j + P, :].transpose(2, 0, 1).reshape(-1)  # nn.Unfold's
                     for i in range(0, H - P + 1, P) for j in range(0, W - P + 1, P)], axis=1)
    return cols.T @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    cols = np.stack([x[i:i + k, j:j + k, :].transpose(2, 0, 1).reshape(-1)
                     for i in range(0, H - k + 1, stride)
                     for j in range(0, W - k + 1, stride)], axis=1)
    weight = K.transpose(2, 0, 1, 3).reshape(C * k * k, -1)  # read in the windows' order
    out = cols.T @ weight + b
    return out.reshape((H - k) // stride + 1, (W - k) // stride + 1, -1)
