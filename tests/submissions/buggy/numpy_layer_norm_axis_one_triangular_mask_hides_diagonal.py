"""Blind round 53 (b53_11, issue 38): layer_norm ported from a numpy `layerNorm.forward`
(find_string id 8643524407: `np.mean(x, axis=1, keepdims=True)`); self_attention from a
Time-Series-Library-style `FullAttention` with `TriangularCausalMask` (`torch.triu(torch.ones(
mask_shape, dtype=torch.bool), diagonal=1)`), in the einsum "blhe,bshe->bhls" style, with the
mask's `diagonal=1` dropped.

Mistakes:
1. layer_norm normalises over axis 1, not the last axis: right on (T, d) input (so the encoder
   and the ViT are unaffected); on batched (B, T, d) input it normalises over T; on 1-D (d,)
   input it raises AxisError.
2. The causal mask `np.triu(np.ones((L, L), bool))` hides the diagonal too: token 0 sees nothing
   (its row is all -inf, the output nan) and no token sees itself. causal=False is right.

Grader: at blind time (0ec6739e) and now, both named: M1 on layer-norm, on a hidden check ("One
slip, made at 2 places: (1) In `layer_norm`, your values are the lecture's with `np.mean(x,
keepdims=True, axis=1)` in place of `np.mean(x, axis=-1, keepdims=True)`: over axis 1 instead of
axis -1 ... (2) ... `np.var(x, keepdims=True, axis=1)` in place of `np.var(x, axis=-1,
keepdims=True)` ..."), M2 on no-causal-mask ("Your causal mask hides the diagonal too, so token 0
sees nothing and its row of the softmax is nan. Token i sees tokens 0..i, itself included: hide only
the tokens after it, the part above the diagonal (np.triu(..., k=1) for a mask of the hidden scores,
such as a -inf triangle added to them; np.tril(ones), k=0, for a mask of the kept ones)."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'no-causal-mask': 'attention_causal_diagonal'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    # Compute mean and variance along the feature dimension
    mean = np.mean(x, axis=1, keepdims=True)
    variance = np.var(x, axis=1, keepdims=True)

    # Normalize the input
    normalized_x = (x - mean) / np.sqrt(variance + eps)

    return normalized_x * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    L, D = x.shape
    H = heads
    if D % H:
        raise ValueError(f"width {D} is not divisible by {H} heads")
    E = D // H

    queries = (x @ p["Wq"] + p["bq"]).reshape(L, H, E)
    keys = (x @ p["Wk"] + p["bk"]).reshape(L, H, E)
    values = (x @ p["Wv"] + p["bv"]).reshape(L, H, E)

    scale = 1. / math.sqrt(E)
    scores = np.einsum("lhe,she->hls", queries, keys)
    if causal:
        mask = np.triu(np.ones((L, L), dtype=bool))
        scores = np.where(mask, -np.inf, scores)

    A = softmax(scale * scores, axis=-1)
    V = np.einsum("hls,shd->lhd", A, values)
    return V.reshape(L, D) @ p["Wo"] + p["bo"]
