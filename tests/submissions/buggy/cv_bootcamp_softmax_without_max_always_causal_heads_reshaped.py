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

Grader: at blind time (d3fd340b), 88/110. Mistake 5 named on stable-softmax ("exp overflowed
... Subtract the maximum along the axis first"), mistake 6 on multi-head-attention's one-head
check ("You applied GPT's causal mask although causal is False"); mistake 7 was only observed.
Why: its listed mistake, attention_heads_bare_reshape, reproduces every call of no-causal-mask's
hidden causal check (causal=True: the always-on mask is right there), but it was un-named there
because the function's other failed calls were "unexplained": the calls on tokens x 100 return
nan (the softmax times the 0/1 mask, renormalised: 0 / 0 once every kept weight underflows, a
third difference no listed mistake makes). Now (issue 38, session 32, kinds/mistakes.py:
`unexplained_elsewhere` leaves out a nan or inf where the expected value is finite) mistake 7 is
named on no-causal-mask's hidden causal check ("Your heads come from a bare reshape,
q.reshape(heads, T, d_h)"), and mistakes 6 and 7 together on multi-head-attention's hidden check
("2 mistakes at once"), each check whose calls show only those; the visible checks, with the
x 100 calls, stay unnamed.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_heads_bare_reshape'}
ALIASES = ('gpt_causal_mask', 'attention_not_equivariant')  # the properties' words for mistake 6


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
