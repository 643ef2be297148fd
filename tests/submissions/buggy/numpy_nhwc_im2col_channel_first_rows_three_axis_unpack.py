"""Blind round 46 (b46_09, issue 38): conv_patch_embed ported from a numpy NHWC im2col CNN
(code-search file id 4954534403: get_out_dims, im2col_indices with
`c = np.repeat(np.arange(C), kH*kW)`, then `K.reshape(kH*kW*C, F).T @ cols + b`), the student's
helpers nested in conv_patch_embed.

Mistakes:
1. The im2col rows are ordered (c, kh, kw) while the kernel is flattened (kh, kw, c): right for
   one channel only ((8, 8, 3) k=4 s=4 off by 11.8).
2. `H, W, C = image.shape`: a 2-D (H, W) image, one channel by the API, raises "not enough values
   to unpack".

Grader: at blind time (78229091) and now, both named on kernel-stride ("2 mistakes at once": "`windows`
and `K` are flattened each in its own order ... Each window is read channel first, (c, p1, p2),
torch's weight order, while the kernel is flattened (p1, p2, c)" and "a 2-D (H, W) `image` is
read as it is, with no channel axis ... its shape unpacked into H, W, C"); the equivalence check
a checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart+op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def conv_patch_embed(image, K, b, stride):
    def get_out_dims(H, W, kH, kW, stride, pad):
        # output size of the convolution (height & width)
        H_out = (H + 2*pad - kH)//stride + 1
        W_out = (W + 2*pad - kW)//stride + 1
        return H_out, W_out

    def im2col_indices(x, kH, kW, stride=1, pad=0):
        # x: (N,H,W,C) -> columns (kH*kW*C, N*H_out*W_out)
        N, H, W, C = x.shape
        H_out, W_out = get_out_dims(H, W, kH, kW, stride, pad)
        x_padded = np.pad(x, ((0,0),(pad,pad),(pad,pad),(0,0)), mode='constant')
        i0 = np.repeat(np.arange(kH), kW)
        i0 = np.tile(i0, C)
        i1 = stride * np.repeat(np.arange(H_out), W_out)
        j0 = np.tile(np.arange(kW), kH*C)
        j1 = stride * np.tile(np.arange(W_out), H_out)
        i = i0.reshape(-1,1) + i1.reshape(1,-1)
        j = j0.reshape(-1,1) + j1.reshape(1,-1)
        c = np.repeat(np.arange(C), kH*kW).reshape(-1,1)
        cols = x_padded[:, i, j, c]  # (N, kH*kW*C, H_out*W_out)
        cols = cols.transpose(1,2,0).reshape(kH*kW*C, -1)
        return cols

    H, W, C = np.asarray(image).shape
    kH, kW, _, F = K.shape
    if kH > H or kW > W:
        raise ValueError(f"kernel {kH}x{kW} is larger than the {H}x{W} image")
    H_out, W_out = get_out_dims(H, W, kH, kW, stride, 0)
    cols = im2col_indices(np.asarray(image)[None], kH, kW, stride, 0)
    out = K.reshape(kH*kW*C, F).T @ cols + b.reshape(-1, 1)  # (F, H_out*W_out)
    return out.T.reshape(H_out, W_out, F)
