"""Blind round 3 (b3_11, issue 38), a port with two mistakes: linear_patch_embed as Hugging Face's
ViTPatchEmbeddings, through the student's own (right) conv_patch_embed with kernel = stride = P,
views W_e as conv weights the torch way, W_e.reshape(C, P, P, d).transpose(1, 2, 0, 3) (rows read
as (c, p1, p2)), though W_e's rows are in (p1, p2, c) order (right for one channel; the named
hint says to read the kernel as (P, P, C, d)); self_attention, an explicit loop over heads, adds
the output bias bo inside the loop, once per head (right with heads=1: observed as such, and as
the same vector added to every row).
Since session 15: its no-causal-mask and multi-head-attention mistakes are observed
(only_one_head), not named, so in unnamed/.
Since session 16 the bias per head is named (op:bias_per_head: `bo` added `heads` times), so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first',
          'no-causal-mask': "op:bias_per_head:self_attention:p['bo']-per-heads",
          'multi-head-attention': "op:bias_per_head:self_attention:p['bo']-per-heads"}


def linear_patch_embed(image, W_e, b_e, P):
    """ViTPatchEmbeddings: Conv2d(C, d, kernel_size=P, stride=P), flattened to (N, d)."""
    img = _as_hwc(image)
    H, W, C = img.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    K = W_e.reshape(C, P, P, d).transpose(1, 2, 0, 3)
    return conv_patch_embed(img, K, b_e, P).reshape(-1, d)


def self_attention(x, p, heads, causal=False):
    """One head at a time; each head's output goes through its own rows of Wo."""
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    out = np.zeros((T, d))
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        s = q @ k.T / np.sqrt(dh)
        if causal:
            s[np.triu_indices(T, 1)] = -np.inf
        out += softmax(s) @ v @ p["Wo"][cols, :] + p["bo"]
    return out
