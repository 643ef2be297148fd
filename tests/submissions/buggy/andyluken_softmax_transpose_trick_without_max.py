"""Blind round 68 (b68_11, issue 38): softmax and self_attention ported from andyluken/transformers
`SelfAttention.py` (softmax, scaled_dot_product_attention with an additive 0/-inf causal mask):
self_attention right (a per-head loop of 2-D calls). The student's top-level
`scaled_dot_product_attention` is nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
20. softmax (line 128 of the file as delivered): `(np.exp(x).T / np.sum(np.exp(x), axis=-1)).T`
    with no max subtracted: exp overflows to nan for inputs near 1000. Wrong for far-from-zero
    values only.
21. softmax (line 128): the transpose trick works for 1-D and 2-D arrays only and `axis` is never
    read: a 3-D or larger input raises a broadcasting ValueError (or is silently wrong where the
    sizes happen to broadcast), and axis=0 normalises the last axis. Wrong on 3-D input or with
    axis != -1 only.

Grader: at blind time (766069c5) and now, 103/110, both named on stable-softmax: mistake 20 on
the overflow check ("In `softmax`, the max subtraction `np.max(x, axis=axis, keepdims=True)` is
left out"), mistake 21 on the small examples ("`axis` is taken as its default, -1, whatever is
given") and on the hidden check, as a pair with 20 ("`e / np.sum(e, axis=axis, keepdims=True)`
is written `(e.T / np.sum(e, axis=-1)).T`, the transpose trick ... `axis` is not read"); the sums
property gives its checklist. Every mistake named, so in buggy/.
Since blind round 73 the transpose trick's sentence says "the sum ignores `axis`" (a max may
still read it), and report/fixed_axis.py says "`axis` is never read" here, where no line reads it.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'
                            '+op:divided_by_transpose:softmax:sum-by-transpose-last-axis'}
CORRECT = ('self_attention',)


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    def scaled_dot_product_attention(q, k, v, mask=None):
        d_k = q.shape[-1]
        scaled = np.matmul(q, k.T) / math.sqrt(d_k)
        if mask is not None:
            scaled = scaled + mask
        attention = softmax(scaled)
        out = np.matmul(attention, v)
        return out, attention

    L, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_k = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]

    # MASK
    mask = None
    if causal:
        mask = np.tril(np.ones((L, L)))
        mask[mask == 0] = -np.inf
        mask[mask == 1] = 0

    values = []
    for h in range(heads):
        sl = slice(h * d_k, (h + 1) * d_k)
        out, attention = scaled_dot_product_attention(q[:, sl], k[:, sl], v[:, sl], mask)
        values.append(out)
    return np.concatenate(values, axis=-1) @ p["Wo"] + p["bo"]
