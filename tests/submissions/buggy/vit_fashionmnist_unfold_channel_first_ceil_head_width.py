"""Blind round 38 (b38_07, issue 38): a PyTorch vit_fashionmnist (code-search file id 3058684488,
vit_fashionmnist_partC_fixed.py: an nn.Unfold PatchEmbed, MultiHeadSelfAttention with
`head_dim = math.ceil(C / num_heads)`, one head at a time).

Mistakes:
1. patchify: nn.Unfold's flatten order (c, p1, p2) instead of the lecture's (p1, p2, c): right
   for one channel only.
2. self_attention: `head_dim = math.ceil(d / heads)` and per-head slices, no ValueError when
   heads does not divide d (the last head gets fewer columns, or none).

Grader: at blind time (60400f1): 1 named ("You flattened each patch channel first, (c, p1,
p2)") on patchify; 2 only checklists ("6 columns do not split into 4 heads of equal width: raise
ValueError when d % heads != 0.", hidden "Raise ValueError when heads does not divide the width
d.") on multi-head-attention. vit-checkpoint observes both.
Since port38b (heads.py's unchecked_heads, heads-unchecked-ceil-width) 2 is named too, on both
refusal checks: "nothing checks that `heads` divides the width d ...: each head takes ceil(d /
heads) columns (`head_dim = math.ceil(d / heads)` ...), so the last heads get fewer columns or
none, every head's scores scaled by sqrt(ceil(d / heads))". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'multi-head-attention': 'op:unchecked_heads:self_attention:heads-unchecked-ceil-width'}


def patchify(image, P):
    """PatchEmbed: nn.Unfold(kernel_size=patch_size, stride=patch_size), then .transpose(1, 2)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)                      # (C, H, W), as torch holds it
    cols = []
    for i in range(0, H - P + 1, P):
        for j in range(0, W - P + 1, P):
            cols.append(x[:, i:i + P, j:j + P].reshape(-1))
    patches = np.stack(cols, axis=1)                  # unfold: (C*P*P, L)
    return patches.T                                  # (L, C*P*P)


def self_attention(x, p, heads, causal=False):
    """MultiHeadSelfAttention.forward, one head at a time."""
    N, C = x.shape
    num_heads = heads
    head_dim = math.ceil(C / num_heads)
    scale = head_dim ** -0.5
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(num_heads):
        sl = slice(h * head_dim, (h + 1) * head_dim)
        attn = (q[:, sl] @ k[:, sl].T) * scale
        if causal:
            attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
        attn = softmax(attn, axis=-1)
        outs.append(attn @ v[:, sl])
    out = np.concatenate(outs, axis=-1)
    return out @ p["Wo"] + p["bo"]
