"""Blind round 64 (b64_14, issue 38): self_attention and ANSWERS ported from
rwitten/HighPerfLLMs2024 `s05/during_class_attention.py` (attention_ourselves: einsums
"SHD,THD->HST" and "HST,THD->SHD", a triu mask subtracted with 1e6).

Mistakes:
16. self_attention (lines 159-160 of the file as delivered): `1e6 * triu(ones, 1)` always
    subtracted, so GPT's causal mask is applied whatever `causal` says. Wrong with the default
    causal=False (T > 1); causal=True is right.
17. ANSWERS["causal_mask"] (line 204) is "speed" where the answer is "bidirectional".

Grader: at blind time (0cd43d22) and now, 91/110, both named. Mistake 16 on no-causal-mask's
mask check and multi-head-attention's three ("You applied GPT's causal mask although causal is
False: on patches it hides a "future" that does not exist."); why-positions' and
no-causal-mask's default-call properties give their checklists (true of the code). Mistake 17 on
no-causal-mask's question ("A mask saves no compute: the T x T scores are computed either way,
then masked. ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'causal_mask:speed',
          'why-positions': 'attention_not_equivariant'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    Q, K, V in (SEQUENCE, HEADS, HEAD_DIM) layout; einsum "SHD,THD->HST" for the weights,
    einsum "HST,THD->SHD" for the output.
    """
    SEQUENCE, D = x.shape
    if D % heads:
        raise ValueError(f"width {D} is not divisible by {heads} heads")
    HEAD_DIM = D // heads
    _Q = (x @ p["Wq"] + p["bq"]).reshape(SEQUENCE, heads, HEAD_DIM)
    _K = (x @ p["Wk"] + p["bk"]).reshape(SEQUENCE, heads, HEAD_DIM)
    _V = (x @ p["Wv"] + p["bv"]).reshape(SEQUENCE, heads, HEAD_DIM)
    _weights_unnormalized = np.einsum("SHD,THD->HST", _Q, _K) / math.sqrt(HEAD_DIM)
    _weights_unnormalized_to_zero_out = np.triu(np.ones((SEQUENCE, SEQUENCE)), 1)
    _weights = softmax(_weights_unnormalized - 1e6 * _weights_unnormalized_to_zero_out, axis=-1)
    output = np.einsum("HST,THD->SHD", _weights, _V)
    return output.reshape(SEQUENCE, D) @ p["Wo"] + p["bo"]


ANSWERS["causal_mask"] = "speed"
