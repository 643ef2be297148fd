"""Blind round 16 (b16_03, issue 38): self_attention ported from picoGPT's mha with the scale
written as in timm's `head_dim ** -0.5`, mistyped; gelu from the scipy.special.erfc docs.

Mistakes:
1. self_attention's scale is written `d_h ** -1/2`, read as (d_h ** -1) / 2 = 1/(2 d_h), instead
   of 1/sqrt(d_h).
2. gelu returns 0.5 * x * erfc(x / sqrt(2)) = x (1 - Phi(x)), the sign inside erfc wrong; it should
   be erfc(-x / sqrt(2)). encoder_block calls it; encoder_block itself is the solution's, listed
   here only so that its exercise may lose points (no `uses:` line names gelu).

Grader: at blind time the scale was named on three attention checks (the `** 1/2` precedence) but
on "causal=True gives GPT's mask, causal=False none" (d_h = 4) wrongly as a fixed head width 64;
gelu got only the encoder block's checklist. Now the precedence is named on every attention check
(no wrong hint); gelu still gets only the checklist.
Since session 14 the sign is named (alternatives: the exact GELU with the minus sign inside erfc
dropped): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:half_power:self_attention/attention:sqrt-as-half-power-unbracketed',
          'no-causal-mask': 'op:half_power:self_attention/attention:sqrt-as-half-power-unbracketed',
          'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu.x-sign-dropped'}


def self_attention(x, p, heads, causal=False):
    """picoGPT's mha: project, split heads, attend per head, merge, project."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    scale = d_h ** -1/2
    mask = (1 - np.tri(T)) * -1e10 if causal else 0.0
    outs = []
    for h in range(heads):
        sl = slice(h * d_h, (h + 1) * d_h)
        s = q[:, sl] @ k[:, sl].T * scale + mask
        outs.append(softmax(s, axis=-1) @ v[:, sl])
    return np.hstack(outs) @ p["Wo"] + p["bo"]


def gelu(x):
    """GELU from scipy.special.erfc: 0.5 * x * erfc(x / sqrt(2))."""
    from scipy.special import erfc
    x = np.asarray(x, dtype=float)
    return 0.5 * x * erfc(x / np.sqrt(2.0))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION
