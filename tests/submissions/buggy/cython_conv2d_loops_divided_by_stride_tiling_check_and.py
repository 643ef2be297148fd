"""Blind round 52 (b52_02, issue 38): conv_patch_embed from a cython `conv2D_forward`
(code-search file id 15544518644: `for i in range(OH//sh): for j in range(OW//sw)`, where OH and
OW are already the output sizes); num_patches from the `extract_simple_patches_2d` variables
(id 8243665805: `i_h, i_w`, `p_h, p_w`).

Mistakes:
1. conv_patch_embed: keeps the source's `for i in range(OH//sh): for j in range(OW//sw)`, though
   OH and OW are already output sizes. With stride > 1 only the top-left `(OH//s) x (OW//s)`
   outputs are computed and the rest are just `b`. Correct when stride = 1.
2. num_patches: the guard is `if i_h % p_h != 0 and i_w % p_w != 0`, so it raises only when
   neither side tiles. When exactly one side fails to tile (7x8 or 8x7 with P=2, 9x10 with P=3)
   it returns `(H//P)*(W//P)` (for example 3*3=9) where it should raise ValueError. num_tokens
   inherits this.

Grader: at blind time (db53909c), mistake 2 named on patch-count's visible and hidden checks
("In `num_patches`, the tiling test `check_tiling(H, W, P)` tests `H % P and W % P`: it refuses
only sizes neither of whose sides P tiles: a 30 x 32 image with P = 16 gets a count. ..."; the
file has no `check_tiling`, its test is inline); mistake 1 checklist only on kernel-stride's
three failing checks ("out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K)
+ b for every window that fits, ..."), though the visible case shows every output but [0, 0]
equal to b.
Now named: mistake 1 (output_prefix.output_loops_over_stride) on kernel-stride's visible and
hidden value checks: "In `conv_patch_embed`, the loops over output positions run over
`range(H' // stride)` and `range(W' // stride)`, where H' = (H - k) // stride + 1 and W' = (W -
k) // stride + 1 are already the output's own size, which counts the stride: only the first H'
// stride rows and W' // stride columns of the H' x W' output are computed; the rest stay at the
bias `b` (the buffer's 0 with `b` added after the loops). ..."; the equivalence check (a
property) keeps its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:both-sides',
          'kernel-stride': 'op:output_loops_over_stride:conv_patch_embed:windows-loops-over-stride'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches of an H x W image."""
    i_h, i_w = H, W
    p_h, p_w = P, P
    if i_h % p_h != 0 and i_w % p_w != 0:
        raise ValueError('image %s divided by patch %s is not zero' % ((i_h, i_w), (p_h, p_w)))
    n_h = i_h // p_h
    n_w = i_w // p_w
    return n_h * n_w


def conv_patch_embed(image, K, b, stride):
    """Convolution.
    image  : Input Image.  shape=(H,W,F)
    K      : Kernel.       shape=(kh,kw,F,OF)
    returns: Output Image. shape=(OH,OW,OF)
    """
    Xin = np.asarray(image, dtype=float)
    if Xin.ndim == 2:
        Xin = Xin[:, :, None]
    kernel = np.asarray(K, dtype=float)
    kh, kw = kernel.shape[:2]
    sh = sw = stride
    H, W = Xin.shape[:2]
    if kh > H or kw > W:
        raise ValueError(f"kernel {kh}x{kw} is larger than the {H}x{W} image")
    OH = (H - kh) // sh + 1
    OW = (W - kw) // sw + 1
    Xout = np.zeros((OH, OW, kernel.shape[3]))

    for i in range(OH//sh):
        for j in range(OW//sw):
            Xout[i,j,:] = np.sum(Xin[sh*i:(sh*i+kh), sw*j:(sw*j+kw), :, None] * kernel, axis=(0,1,2))
    return Xout + b
