"""Blind round 10 (b10_03, issue 38): conv_patch_embed ported from PyTorch's F.conv2d layouts (input
(C, H, W), weight (out, in, kH, kW)), as torchvision's VisionTransformer._process_input documents
its conv_proj output `(n, hidden_dim, n_h, n_w)`.

Mistakes:
1. The output stays channel-first, (d, H', W'), instead of (H', W', d). Every input.
2. The "kernel too large" guard checks the height only (kH > H). Shows only when H >= k > W:
   no check of the blind round had such a case (the ValueError check passed).

Grader: in the blind round, a checklist and one_axis_off's observation on the hidden check
("the right values, with an axis of length 1 missing"), which is not what happens: the axis is
in front, not missing (d = 1 there). Named since (results' channels first, and the error model
tried before that observation). The height-only guard is caught since kernel-stride's refusal
check has a kernel wider than the image. one_axis_off, were it reached, says "with their axes in
another order: shape (1, 3, 2) where (3, 2, 1) is expected", no axis missing.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first'}


def conv_patch_embed(image, K, b, stride):
    """F.conv2d(x, weight, bias, stride) for one image, written with torch's layouts."""
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    x = x.transpose(2, 0, 1)                       # (C, H, W), as torch wants it
    weight = np.transpose(K, (3, 2, 0, 1))         # (out_channels, in_channels, kH, kW)
    out_channels, in_channels, kH, kW = weight.shape
    _, H, W = x.shape
    if kH > H:
        raise ValueError("Kernel size can't be greater than actual input size")
    H_out = (H - kH) // stride + 1
    W_out = (W - kW) // stride + 1
    out = np.zeros((out_channels, H_out, W_out))
    for i in range(H_out):
        for j in range(W_out):
            window = x[:, i * stride:i * stride + kH, j * stride:j * stride + kW]
            out[:, i, j] = np.tensordot(weight, window, axes=([1, 2, 3], [0, 1, 2])) + b
    return out
