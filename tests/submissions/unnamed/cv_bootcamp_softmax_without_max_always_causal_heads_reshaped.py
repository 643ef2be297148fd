"""Blind round 67 (b67_03, issue 38): softmax and
self_attention ported from cybershiptrooper/CV_bootcamp_SWB
`bonus_exercises/attention/soln/attention.py`.

Mistakes:
5. softmax (line 121 of the file as delivered): `np.exp(x)` with no max subtracted. Wrong on
   large inputs only.
6. self_attention (lines 146-147): `mask = np.tril(np.ones_like(qk))` always applied; `causal`
   ignored. Wrong with causal=False and T > 1.
7. self_attention (lines 142-144 and 149): heads split with `.reshape((nh, wps, -1))` straight
   from (T, d), no (T, h, d_h) -> (h, T, d_h) transpose, and merged with `.reshape((wps, -1))`.
   Wrong with heads > 1 only.

Grader: at blind time (d3fd340b) and now, 88/110. Mistake 5 named on stable-softmax ("exp
overflowed ... Subtract the maximum along the axis first"), mistake 6 on multi-head-attention's
one-head check ("You applied GPT's causal mask although causal is False"; no-causal-mask's
default check gives its checklist, GPT's causal mask); mistake 7 only observed: multi-head-
attention's head-count checks give the checklist ("head h takes the contiguous columns
h*d_h:(h+1)*d_h"), no-causal-mask's causal ones "fix it there first". Not every mistake named, so
in unnamed/; EXPECT holds what must hold today: the points lost, mistakes 5 and 6 named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'multi-head-attention': 'attention_causal',
          'no-causal-mask': None}


def softmax(x, axis=-1):
    """exp(x) normalised along axis."""
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), einsum version from the bootcamp solution."""
    wps, dm = x.shape
    nh = heads
    if dm % nh:
        raise ValueError(f"width {dm} is not divisible by {nh} heads")
    dh = dm / nh
    qs = (np.einsum('wm, mo -> wo', x, p["Wq"]) + p["bq"]).reshape((nh, wps, -1))
    vs = (np.einsum('wm, mo -> wo', x, p["Wv"]) + p["bv"]).reshape((nh, wps, -1))
    ks = (np.einsum('wm, mo -> wo', x, p["Wk"]) + p["bk"]).reshape((nh, wps, -1))
    qk = np.einsum('...nd, ...od->...no', qs, ks) / np.sqrt(dh)
    mask = np.tril(np.ones_like(qk))
    exp_qk = softmax(qk, axis=-1) * mask
    exp_qk /= np.sum(exp_qk, axis=-1, keepdims=True)
    attn = np.einsum('...ij, ...jk->...ik', exp_qk, vs).reshape((wps, -1))
    return np.einsum('wm, mo -> wo', attn, p["Wo"]) + p["bo"]
