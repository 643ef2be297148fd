"""Blind round 59 (b59_03, issue 38): conv_patch_embed and self_attention ported from
asyml/vision-transformer-pytorch `src/model.py` (VisionTransformer's tiling `nn.Conv2d`
embedding, `gh, gw = h // fh, w // fw`; SelfAttention with LinearGeneral). The student's
top-level `_hwc` is nested in conv_patch_embed and `linear_general` in self_attention here: the
builder replaces only the solution's own definitions.

Mistakes:
4. conv_patch_embed (line 60 of the file as delivered): the output grid is `h // stride,
   w // stride` (the source's grid for a tiling conv), not `(h - k) // stride + 1`. Right when
   stride == k and the sizes tile (so the kernel/stride equivalence passes); wrong (a truncated
   window makes tensordot raise ValueError) when stride < k or the size leaves a remainder,
   e.g. 9x7 with k=3, s=1, or 8x8 with k=3, s=2.
5. self_attention (line 116): `scale = head_dim ** 0.5` (the source's, which it divides by) is
   used as a multiplier, `... * scale`. Wrong on any input with d_h > 1; encoder_block and
   vit_forward inherit it.

Grader: at blind time (528b2ec3) and now, 91/110, both named. Mistake 4 on kernel-stride ("In
`conv_patch_embed`, the output grid is sized `H // stride` by `W // stride` ... Count the outputs
as `(H - k) // stride + 1` ..."), mistake 5 on multi-head-attention and no-causal-mask ("...
multiplies by ... `math.sqrt(q.shape[-1])` instead of dividing by it"). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:grid_by_stride:conv_patch_embed:windows-grid-H-over-stride',
          'multi-head-attention': 'op:divided:self_attention/attention:math.sqrt(q.shape[-1])-multiplied',
          'no-causal-mask': 'op:divided:self_attention/attention:math.sqrt(q.shape[-1])-multiplied'}


def conv_patch_embed(image, K, b, stride):
    """self.embedding = nn.Conv2d(3, emb_dim, kernel_size=(fh, fw), stride=(fh, fw)), channels last."""
    def _hwc(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, np.newaxis]
        if x.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _hwc(image).astype(float)
    h, w, c = x.shape
    fh, fw = K.shape[0], K.shape[1]
    if fh > h or fw > w:
        raise ValueError("kernel does not fit in the image")
    gh, gw = h // stride, w // stride
    emb = np.zeros((gh, gw, K.shape[3]))
    for i in range(gh):
        for j in range(gw):
            window = x[i * stride:i * stride + fh, j * stride:j * stride + fw, :]
            emb[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return emb  # (gh, gw, c)


def self_attention(x, p, heads, causal=False):
    """SelfAttention.forward on one sequence x of shape (n, in_dim)."""
    def linear_general(x, weight, bias, dims):
        return np.tensordot(x, weight, axes=dims) + bias

    n, in_dim = x.shape
    if in_dim % heads:
        raise ValueError("in_dim must be divisible by heads")
    head_dim = in_dim // heads
    scale = head_dim ** 0.5

    # LinearGeneral((in_dim,), (heads, head_dim))
    q = linear_general(x, p["Wq"].reshape(in_dim, heads, head_dim), p["bq"].reshape(heads, head_dim), dims=([1], [0]))
    k = linear_general(x, p["Wk"].reshape(in_dim, heads, head_dim), p["bk"].reshape(heads, head_dim), dims=([1], [0]))
    v = linear_general(x, p["Wv"].reshape(in_dim, heads, head_dim), p["bv"].reshape(heads, head_dim), dims=([1], [0]))

    q = q.transpose(1, 0, 2)
    k = k.transpose(1, 0, 2)
    v = v.transpose(1, 0, 2)

    attn_weights = np.matmul(q, k.transpose(0, 2, 1)) * scale
    if causal:
        attn_weights = np.where(np.tril(np.ones((n, n))) == 1, attn_weights, -np.inf)
    attn_weights = softmax(attn_weights, axis=-1)
    out = np.matmul(attn_weights, v)
    out = out.transpose(1, 0, 2)

    # LinearGeneral((heads, head_dim), (in_dim,))
    out = linear_general(out, p["Wo"].reshape(heads, head_dim, in_dim), p["bo"], dims=([1, 2], [0, 1]))
    return out
