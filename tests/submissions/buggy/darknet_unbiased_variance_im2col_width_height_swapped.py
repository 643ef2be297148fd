"""Blind round 57 (b57_13, issue 38): pjreddie/darknet `src/im2col.c`, `src/gemm.c`,
`src/blas.c` (`variance_cpu`: `scale = 1./(batch*spatial - 1)`), `src/convolutional_layer.c`.

Mistakes:
19. `layer_norm` (helper `variance_cpu`) takes the unbiased variance, `1 / (spatial - 1)`
    (ddof=1), instead of the biased one: any input with non-constant rows.
20. `conv_patch_embed` calls `im2col_cpu(data_im, c, w, h, ...)` where the C signature is
    `(data_im, channels, height, width, ...)`: height and width swapped, the CHW buffer read with
    the wrong row length. Shows on H != W only (square images are right; no error is raised).

Grader: at blind time (84f876fc) and now, #19 named (layer_norm_unbiased); #20 only observed at
blind time: "Your `conv_patch_embed` is right when H == W, wrong for a 5 x 6 image"
(only_square_images), the hidden check only the checklist. Now named on both
(error_model/inputs.py's buffer_sides_swapped): "In `conv_patch_embed`, `image` is read with its
height and width swapped in a channels-first buffer: ...". In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased',
          'kernel-stride': 'op:buffer_sides_swapped:conv_patch_embed:image-sides-swapped-in-buffer'}


def conv_patch_embed(image, K, b, stride):
    def im2col_get_pixel(im, height, width, channels, row, col, channel, pad):
        row -= pad
        col -= pad
        if row < 0 or col < 0 or row >= height or col >= width:
            return 0.0
        return im[col + width * (row + channel * height)]

    def im2col_cpu(data_im, channels, height, width, ksize, stride, pad, data_col):
        height_col = (height + 2 * pad - ksize) // stride + 1
        width_col = (width + 2 * pad - ksize) // stride + 1
        channels_col = channels * ksize * ksize
        for c in range(channels_col):
            w_offset = c % ksize
            h_offset = (c // ksize) % ksize
            c_im = c // ksize // ksize
            for h in range(height_col):
                for w in range(width_col):
                    im_row = h_offset + h * stride
                    im_col = w_offset + w * stride
                    col_index = (c * height_col + h) * width_col + w
                    data_col[col_index] = im2col_get_pixel(data_im, height, width, channels,
                                                           im_row, im_col, c_im, pad)

    def gemm_nn(M, N, K, ALPHA, A, lda, B, ldb, C, ldc):
        a = A.reshape(M, lda)[:, :K]
        b = B.reshape(K, ldb)[:, :N]
        C.reshape(M, ldc)[:, :N] += ALPHA * (a @ b)

    img = np.asarray(image, dtype=np.float64)
    if img.ndim == 2:
        img = img[:, :, None]
    h, w, c = img.shape
    size = K.shape[0]
    n = K.shape[3]
    if size > h or size > w:
        raise ValueError("filter larger than the input")
    pad = 0
    out_h = (h + 2 * pad - size) // stride + 1
    out_w = (w + 2 * pad - size) // stride + 1
    data_im = img.transpose(2, 0, 1).ravel()                       # darknet keeps images as CHW
    weights = K.transpose(3, 2, 0, 1).ravel()                      # n x c x size x size
    m, k, nn = n, size * size * c, out_h * out_w
    workspace = np.zeros(k * nn)
    im2col_cpu(data_im, c, w, h, size, stride, pad, workspace)
    output = np.zeros(m * nn)
    gemm_nn(m, nn, k, 1.0, weights, k, workspace, nn, output, nn)
    output = output.reshape(n, out_h, out_w) + np.asarray(b)[:, None, None]   # add_bias
    return output.transpose(1, 2, 0)


def layer_norm(x, gamma, beta, eps=1e-6):
    def mean_cpu(x, spatial):
        scale = 1.0 / spatial
        return x.sum(axis=-1, keepdims=True) * scale

    def variance_cpu(x, mean, spatial):
        scale = 1.0 / (spatial - 1)
        return ((x - mean) ** 2).sum(axis=-1, keepdims=True) * scale

    x = np.asarray(x, dtype=float)
    spatial = x.shape[-1]
    mean = mean_cpu(x, spatial)
    variance = variance_cpu(x, mean, spatial)
    x_norm = (x - mean) / np.sqrt(variance + eps)                 # normalize_cpu
    return x_norm * gamma + beta                                  # scale_bias + add_bias
