"""Blind round 83 (b83_13, issue 38): layer_norm and conv_patch_embed ported from
ashhhi/transformer_study `hugging_face/ViT.py` (Hugging Face's ViT).

Mistakes:
1. layer_norm (line 87 of the file as delivered): default eps 1e-12 (HF's `layer_norm_eps`)
   instead of 1e-6: wrong on small-variance rows with the default; an explicit eps is right.
2. conv_patch_embed (lines 56-68): nothing tests that the kernel fits the image, so `k > H`
   or `k > W` returns an empty or odd array instead of raising ValueError.

Grader: at blind time (2774dae9) and now, 108/110. Mistake 1 named on layer-norm ("eps is 1e-12
(`eps=1e-12` in your code); the student API's is 1e-06."; from the values alone "eps is a value
below about 1e-09 ... the student API's is 1e-06"); mistake 2 named on kernel-stride
("nothing tests that the kernel fits the image ... refuse `k > H or k > W` first."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def layer_norm(x, gamma, beta, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def conv_patch_embed(image, K, b, stride):
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    H, W, C = img.shape
    k = K.shape[0]
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((Ho, Wo, K.shape[-1]))
    for i in range(Ho):
        for j in range(Wo):
            patch = img[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("ijc,ijcd->d", patch, K) + b
    return out
