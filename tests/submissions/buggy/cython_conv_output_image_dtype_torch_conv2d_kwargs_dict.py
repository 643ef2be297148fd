"""Blind round 52 (b52_06, issue 38): conv_patch_embed ported from a cython `conv2D_forward_gil`
(its `floating` Xout has the input's dtype: here `Xout = np.zeros_like(Xin, shape=(OH, OW,
OF))`); conv_equivalent from torch's `nn.Conv2d(kernel_size=patch_size, stride=patch_size)`
keyword arguments.

Mistakes:
1. conv_patch_embed: the output takes the image's dtype. On uint8 images the float sums (bias
   included) are cast to uint8 and wrapped or truncated; float images are right.
2. conv_equivalent returns `dict(kernel_size=P, stride=P)` where the API wants the tuple (P, P).

Grader: at blind time (db53909c) and now, both named on kernel-stride: M1 ("In `conv_patch_embed`,
the result takes `image`'s dtype (as a buffer made with `np.zeros(..., dtype=image.dtype)` or
`np.zeros_like(image)` does): right for a float `image`, while for integer pixels (uint8, as a file
gives them) the float results are cut to integers (and wrapped into 0..255 for uint8). Make the
output float."), M2 ("In `conv_equivalent`, the result `(P, P)` is returned as the keyword arguments
of the layer it configures, `dict(kernel_size=P, stride=P)`, as timm's and Hugging Face's patch
embedding write `nn.Conv2d(..., kernel_size=patch_size, stride=patch_size)`: the lecture's answer is
the tuple (kernel_size, stride) itself, `(P, P)`."). Every mistake named, so in buggy/. (EXPECT
keeps one name per exercise: kernel-stride names M1 on its conv_patch_embed check and
op:sizes_as_keywords:conv_equivalent:as-keyword-arguments on its conv_equivalent checks.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """Convolution.
    Xin    : Input Image.  shape=(H,W,F)
    kernel : Kernel.       shape=(kh,kw,F,OF)
    Xout   : Output Image. shape=(OH,OW,OF)
    """
    Xin = np.asarray(image)
    if Xin.ndim == 2:
        Xin = Xin[:, :, None]
    kernel = K
    kh, kw, F, OF = kernel.shape
    sh = sw = stride
    H, W = Xin.shape[:2]
    if kh > H or kw > W:
        raise ValueError(f"kernel {kh}x{kw} is larger than the {H}x{W} image")
    OH = (H - kh) // sh + 1
    OW = (W - kw) // sw + 1
    Xout = np.zeros_like(Xin, shape=(OH, OW, OF))

    for i in range(OH):
        for j in range(OW):
            Xout[i,j,:] = np.sum(Xin[sh*i:(sh*i+kh), sw*j:(sw*j+kw), :, None] * kernel, axis=(0,1,2)) + b
    return Xout


def conv_equivalent(P):
    """Arguments of the Conv2d that computes the patch embedding."""
    return dict(kernel_size=P, stride=P)
