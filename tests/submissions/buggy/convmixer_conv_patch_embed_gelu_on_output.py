"""Blind round 30 (b30_02, issue 38): conv_patch_embed ported from locuslab/convmixer
(convmixer.py: the stem Conv2d(kernel_size=patch_size, stride=patch_size) -> GELU ->
BatchNorm2d, the BatchNorm taken as the identity at initialisation).

Mistakes:
1. conv_patch_embed: the stem's GELU is kept, applied to the convolution's output. Wrong on
   every input (GELU is not the identity).

Grader: at blind time and now, observed only in the weakest sense: the equivalence check (kernel
P, stride P equals the linear map) gives its generic checklist ("Check both: conv_patch_embed
(its windows, stride and bias, ...) and linear_patch_embed"), true but not pointing at an
activation; the direct conv_patch_embed checks (visible and hidden) fail with no hint line.
Nothing named, so in unnamed/.
Since session 17 named on the direct checks (op:stem_activation, stems.py: the linear map's
output goes through the exact GELU before it is returned, as in ConvMixer's stem): every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stem_activation:conv_patch_embed:result-through-gelu'}


def conv_patch_embed(image, K, b, stride):
    """The patch-embedding stem of ConvMixer: Conv2d(kernel_size=patch_size, stride=patch_size), GELU, BatchNorm."""
    image = _as_hwc(image)
    H, W, C = image.shape
    kernel_size = K.shape[0]
    dim = K.shape[3]
    if kernel_size > H or kernel_size > W:
        raise ValueError(f"kernel {kernel_size} is larger than the {H}x{W} image")
    H_out = (H - kernel_size) // stride + 1
    W_out = (W - kernel_size) // stride + 1
    out = np.zeros((H_out, W_out, dim))
    for i in range(H_out):
        for j in range(W_out):
            window = image[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    out = gelu(out)      # nn.GELU()
    return out           # nn.BatchNorm2d(dim) is the identity at initialisation
