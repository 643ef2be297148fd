"""Blind round 83 (b83_09, issue 38): conv_patch_embed ported from izzortsi/turbo-dolloplow
`tfconv.py`.

Mistakes:
1. conv_patch_embed (lines 62-65 of the file as delivered): TensorFlow's padding='SAME',
   ceil(H / stride) x ceil(W / stride) outputs over a zero-padded image, where the lecture's
   convolution is valid. Right when k == stride and the sizes tile (so the conv/linear check
   passes), wrong for k != stride or a size the stride does not tile.

Grader: at blind time (2774dae9) and now, 106/110. Mistake 1 named on kernel-stride ("the image
is zero-padded as TensorFlow's padding='SAME' does: ceil(H / stride) outputs ... the lecture's
convolution is valid"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same'}


def conv_patch_embed(image, K, b, stride):
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    H, W, C = img.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    Ho, Wo = -(-H // stride), -(-W // stride)
    pad_h = max((Ho - 1) * stride + k - H, 0)
    pad_w = max((Wo - 1) * stride + k - W, 0)
    img = np.pad(img, ((pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
    out = np.zeros((Ho, Wo, K.shape[-1]))
    for i in range(Ho):
        for j in range(Wo):
            patch = img[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("ijc,ijcd->d", patch, K) + b
    return out
