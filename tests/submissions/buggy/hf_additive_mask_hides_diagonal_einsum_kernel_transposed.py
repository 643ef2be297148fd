"""Blind round 3 (b3_14, issue 38), a port with two mistakes: self_attention's Hugging Face-style
additive mask is np.triu(ones, k=0) * -1e9, which hides the diagonal too (k=1 belongs), so no
token attends to itself, and token 0, whose whole row is shifted by the same -1e9, attends to
every token, the later ones included; conv_patch_embed's einsum 'ijcab,bacd->ijd' over
sliding_window_view windows reads the kernel transposed in space (named: K's first two axes
swapped). The mask is named as two mistakes at once: the triangle one diagonal off, and the
mask added as -1e9 instead of -inf (which alone changes nothing while a row keeps a key).
Since the eleventh session the mask is named no more: the additive -1e9 is no mistake (it alone
changes nothing on any case; round 19 read the same pair as a wrong cause), and the triangle alone
does not reproduce the row that hides every key. The kernel is still named.
Since the twelfth session the triangle is named alone (the additive -1e9, a part that changes
nothing alone, is not told): wholly named, moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:transposed_argument:conv_patch_embed:K-axes-swapped',
          'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1+~op:infinity_added:self_attention/attention:minus-inf-as-added-1e9'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation via sliding windows and one einsum."""
    x = _as_hwc(image)
    k = K.shape[0]
    H, W, C = x.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than image {H}x{W}")
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    return np.einsum("ijcab,bacd->ijd", win, K) + b


def self_attention(x, p, heads, causal=False):
    """BERT-style self-attention with an additive attention mask."""
    T, d = x.shape
    if d % heads:
        raise ValueError("hidden size is not a multiple of the number of attention heads")
    dh = d // heads

    def shape(t):
        return t.reshape(T, heads, dh).transpose(1, 0, 2)

    q = shape(x @ p["Wq"] + p["bq"])
    k = shape(x @ p["Wk"] + p["bk"])
    v = shape(x @ p["Wv"] + p["bv"])
    scores = np.matmul(q, k.transpose(0, 2, 1)) / math.sqrt(dh)
    if causal:
        attention_mask = np.triu(np.ones((T, T)), k=0) * -1e9
        scores = scores + attention_mask
    probs = softmax(scores, axis=-1)
    ctx = np.matmul(probs, v).transpose(1, 0, 2).reshape(T, d)
    return ctx @ p["Wo"] + p["bo"]
