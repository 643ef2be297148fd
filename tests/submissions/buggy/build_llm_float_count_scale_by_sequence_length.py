"""Blind round 82 (b82_01, issue 38): num_patches and self_attention ported from
coki230/build_llm `CausalAttention.py`.

Mistakes:
1. num_patches (line 9 of the file as delivered): `H * W / P ** 2`, true division, a float
   (196.0); num_tokens returns 197.0. The values are right, the type wrong.
2. self_attention (line 104): the scores divided by `num_tokens ** 0.5`, sqrt of the sequence
   length T (as in the source), not sqrt(d_h): wrong whenever T != d_h, with any head count
   (encoder_block and vit_forward inherit it).

Grader: at blind time (ee59f1b1) and now, 90/110. Mistake 1 named on patch-count ("In `num_patches`,
the number is right but it is a float (at your line `return H * W / P ** 2`) ... `//`"). Mistake 2
partly, on multi-head-attention and no-causal-mask: "the model solution's `q.shape[-1]` reads
index -2 instead of -1: `q.shape[-2]`", the right function and the right value (the T axis
where d_h belongs), but in the model solution's terms only: it never says that the scale is the
sequence length's root, nor points at the student's line (`num_tokens ** 0.5`). Since 76741df4
(error_model/scales.py's sqrt(T), preferred to the index reading), mistake 2 is named on every
failed check of both: "the scores are divided by sqrt(T) (at your line that takes the square
root), the square root of the number of tokens T (the sequence length), where sqrt(d_h) ...
belongs"; every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(T)',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(T)'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image size must be divisible by patch size")
    return H * W / P ** 2


def self_attention(x, p, heads, causal=False):
    num_tokens, d_out = x.shape
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    keys = x @ p["Wk"] + p["bk"]
    querys = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]

    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    querys = querys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)

    attention_scores = querys @ keys.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attention_scores = np.where(mask, -np.inf, attention_scores)

    attention_weights = softmax(attention_scores / num_tokens ** 0.5, axis=-1)

    context_vector = (attention_weights @ values).transpose(1, 0, 2).reshape(num_tokens, d_out)
    return context_vector @ p["Wo"] + p["bo"]
