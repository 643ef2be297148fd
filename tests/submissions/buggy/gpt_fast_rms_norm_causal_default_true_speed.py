"""Blind round 60 (b60_08, issue 38): layer_norm, self_attention and ANSWERS ported from
pytorch-labs/gpt-fast `model.py` (RMSNorm as layer_norm; Attention.forward with the fused wqkv
split and `F.scaled_dot_product_attention`, always causal), with encoder_block ported right
(CORRECT: TransformerBlock, calling self_attention with causal=False as the file does). The
student's top-level `scaled_dot_product_attention` is nested in self_attention and `feed_forward`
in encoder_block here: the builder replaces only the solution's own definitions.

Mistakes:
13. layer_norm (line 76 of the file as delivered) is RMSNorm: `x * rsqrt(mean(x*x) + eps)`, no
    mean taken away (gamma and beta then applied). Wrong whenever a row's mean is not 0; large
    for values far from zero (`50 + randn`).
14. self_attention (line 92): the signature has `causal=True` as its default (gpt-fast always
    applies its causal_mask), so a call without `causal` hides later tokens. Wrong for any T > 1
    when causal is not passed (this file's encoder_block passes causal=False).
15. ANSWERS["causal_mask"] (line 138) is "speed" where the answer is "bidirectional".

Grader: at blind time (528b2ec3) and now, 87/110, all three named. Mistake 13 on layer-norm's small
examples, eps and random checks ("In `layer_norm`, the statistics are taken about zero, as
RMSNorm (T5, LLaMA) takes them: no mean taken away ..."), and by the shift property's checklist
(mean_not_subtracted). Mistake 14 on multi-head-attention's three checks ("`causal` defaults to
True (`causal=True` in the signature) ...") and on no-causal-mask's default check and
why-positions' property ("Your `self_attention` masks the later tokens when `causal` is left out
..."). Mistake 15 on no-causal-mask's answer check ("A mask saves no compute ..."). vit-checkpoint
observes layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}
ALIASES = ('mean_not_subtracted',  # the shift property's verdict on mistake 13
           'causal_mask:speed')    # mistake 15, named on no-causal-mask too
CORRECT = ('encoder_block',)  # TransformerBlock, causal=False passed


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    output = x * (1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps))
    return output * gamma + beta


def self_attention(x, p, heads, causal=True):
    def scaled_dot_product_attention(query, key, value, attn_mask=None):
        L, S = query.shape[-2], key.shape[-2]
        scale_factor = 1 / math.sqrt(query.shape[-1])
        attn_bias = np.zeros((L, S))
        if attn_mask is not None:
            attn_bias = np.where(attn_mask, attn_bias, -np.inf)
        attn_weight = query @ np.swapaxes(key, -2, -1) * scale_factor
        attn_weight += attn_bias
        attn_weight = softmax(attn_weight, axis=-1)
        return attn_weight @ value

    seqlen, dim = x.shape
    n_head = heads
    if dim % n_head:
        raise ValueError("dim % n_head != 0")
    head_dim = dim // n_head
    kv_size = n_head * head_dim

    wqkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    bqkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    q, k, v = np.split(x @ wqkv + bqkv, [dim, dim + kv_size], axis=-1)

    q = q.reshape(seqlen, n_head, head_dim)
    k = k.reshape(seqlen, n_head, head_dim)
    v = v.reshape(seqlen, n_head, head_dim)
    q, k, v = map(lambda t: t.transpose(1, 0, 2), (q, k, v))

    mask = np.tril(np.ones((seqlen, seqlen), dtype=bool)) if causal else None
    y = scaled_dot_product_attention(q, k, v, attn_mask=mask)

    y = y.transpose(1, 0, 2).reshape(seqlen, dim)
    return y @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def feed_forward(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    h = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, causal=False)
    out = h + feed_forward(layer_norm(h, p["ln2_g"], p["ln2_b"]), p)
    return out


ANSWERS["causal_mask"] = "speed"
