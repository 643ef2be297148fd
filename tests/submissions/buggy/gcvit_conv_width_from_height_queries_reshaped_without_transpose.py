"""Blind round 58 (b58_06, issue 38): conv_patch_embed and self_attention ported from NVlabs/GCVit
`models/gc_vit.py` (PatchEmbed, WindowAttention, WindowAttentionGlobal's
`q_global.reshape(B_, self.num_heads, N, C // self.num_heads)`). The student's
`_to_channel_last` (top-level in the file) is nested in conv_patch_embed here: the builder
replaces only the solution's own definitions.

Mistakes:
9. conv_patch_embed (line 61 of the file as delivered) computes the output width from the
   height, `W_out = (H - k) // stride + 1`. Wrong only when H != W: W > H gives an output too
   narrow ((4, 4, d) for an 8x12 image); H > W gives empty windows, and tensordot raises a numpy
   ValueError.
10. self_attention (line 103) reshapes the queries straight to `(B_, heads, N, hd)` without the
    `(N, heads, hd) -> (heads, N, hd)` transpose (GCViT's global-query reshape); the keys and the
    values are split correctly. Wrong only with heads > 1.

Grader: at blind time (ba46f523) and now, 89/110, both named. Mistake 9 on kernel-stride's
value checks ("In `conv_patch_embed`, the columns of the output are counted from H, `(H - k) //
stride + 1`, where `(W - k) // stride + 1` belongs (a line written for the rows and copied) ...");
its "kernel P, stride P" property could not judge (the tensordot ValueError, traceback shown).
Mistake 10 on multi-head-attention's two checks and no-causal-mask's causal checks (at blind
time "In `self_attention` (at the model solution's step `split_heads(linear(x, p['Wq'], p['bq']),
heads)`), `x.reshape(*lead, T, heads, d // heads).swapaxes(-2, -3)` is done with a reshape alone
..."; now: "In `self_attention` (where the columns are split into heads), the model solution's
`x.reshape(*lead, T, heads, d // heads).swapaxes(-2, -3)` is done with a reshape alone ..."); only
the q line of the file has the bare reshape, and the hint's step is q's. why-positions' checklist
says self_attention depends on row order (true of it); vit-checkpoint observes self_attention.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'no-causal-mask': 'op:reshape_for_transpose:self_attention/split_heads:reshape-instead-of-swapaxes',
          'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads:reshape-instead-of-swapaxes'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the split


def conv_patch_embed(image, K, b, stride):
    """Convolve an (H, W, C) image with a (k, k, C, d) kernel: (H', W', d)."""
    def _to_channel_last(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _to_channel_last(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than input")
    H_out = (H - k) // stride + 1
    W_out = (H - k) // stride + 1
    out = np.zeros((H_out, W_out, K.shape[-1]))
    for i in range(H_out):
        for j in range(W_out):
            out[i, j] = np.tensordot(x[i * stride:i * stride + k, j * stride:j * stride + k], K, axes=([0, 1, 2], [0, 1, 2]))
    return out + b


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    B_ = 1
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    kv = np.stack([x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]])          # (2, N, C)
    kv = kv.reshape(2, B_, N, num_heads, head_dim).transpose(0, 1, 3, 2, 4)  # (2, B_, heads, N, hd)
    k, v = kv[0], kv[1]
    q_global = x @ p["Wq"] + p["bq"]
    q = q_global.reshape(B_, num_heads, N, C // num_heads)
    q = q * scale
    attn = q @ k.transpose(0, 1, 3, 2)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), 1)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(0, 2, 1, 3).reshape(B_, N, C)[0]
    return x @ p["Wo"] + p["bo"]
