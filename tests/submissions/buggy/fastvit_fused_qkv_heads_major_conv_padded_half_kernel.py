"""Blind round 62 (b62_02, issue 38): conv_patch_embed and self_attention ported from apple/ml-fastvit
`models/fastvit.py` (PatchEmbed's ReparamLargeKernelConv with `padding = kernel_size // 2`; MHSA
with its fused qkv projection). The student's top-level `_to_hwc` is nested in conv_patch_embed
here: the builder replaces only the solution's own definitions.

Mistakes:
3. self_attention (line 105 of the file as delivered): the fused qkv output reshaped
   `(N, num_heads, 3, head_dim)` instead of the source's `(N, 3, num_heads, head_dim)`, so q, k
   and v take interleaved column blocks. Wrong only with heads > 1 (identical at one head).
4. conv_patch_embed (lines 58-59): the image padded by `kernel_size // 2` on every side (the
   reparam conv's padding), so the convolution is not valid: wrong output size and values for
   any k >= 2 (and the conv / linear equivalence broken).

Grader: at blind time (90d6c97e) and now, 90/110, both named. Mistake 3 on multi-head-attention's
head-count and random checks and no-causal-mask's two ("In `self_attention`, q, k, v come from
one fused product, ..., split per token as (heads, 3, d_h) where its columns are (3, heads, d_h)
... Reshape to (T, 3, heads, d_h) first."). Mistake 4 on kernel-stride's kernels-and-strides and
random checks ("In `conv_patch_embed`, the image is zero-padded by k // 2 on every side ... the
lecture's convolution is valid, without padding"); its equivalence check gets the checklist;
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'}


def conv_patch_embed(image, K, b, stride):
    """ReparamLargeKernelConv(kernel_size=patch_size, stride=stride): one dense conv."""
    def _to_hwc(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, np.newaxis]
        elif image.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return image

    x = _to_hwc(image).astype(float)
    kernel_size = K.shape[0]
    H, W, C = x.shape
    if kernel_size > H or kernel_size > W:
        raise ValueError("kernel larger than the image")
    padding = kernel_size // 2
    x = np.pad(x, ((padding, padding), (padding, padding), (0, 0)))
    Hp, Wp, _ = x.shape
    H_out = (Hp - kernel_size) // stride + 1
    W_out = (Wp - kernel_size) // stride + 1
    out = np.zeros((H_out, W_out, K.shape[-1]))
    for i in range(H_out):
        for j in range(W_out):
            patch = x[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size]
            out[i, j] = np.tensordot(patch, K, axes=3)
    return out + b


def self_attention(x, p, heads, causal=False):
    """MHSA.forward with a fused qkv projection."""
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    num_heads = heads
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, num_heads, 3, head_dim).transpose(2, 1, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    # trick here to make q@k.t more stable
    attn = (q * scale) @ k.transpose(0, 2, 1)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
