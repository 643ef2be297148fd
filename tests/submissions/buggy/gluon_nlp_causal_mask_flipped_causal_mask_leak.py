"""Blind round 26 (b26_09, issue 38): self_attention ported from dmlc/gluon-nlp (MXNet numpy:
`gen_self_attn_mask`, `masked_softmax`, `multi_head_dot_attn` with the 'NTK' layout), and the
causal_mask answer. The student's top-level helpers `_masked_softmax` and `_gen_self_attn_mask`
are nested in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention's causal mask compares the wrong way, `steps.reshape(-1, 1) <=
   steps.reshape(1, -1)`: the upper triangle is kept, token i sees tokens i..T-1.
2. ANSWERS["causal_mask"] = "leak": a ViT has no label in its input for a mask to guard.

Grader: at blind time and now, both named: the mask upside down on no-causal-mask (np.tril); the
"leak" option's own feedback on the causal_mask question (the same exercise, so in ALIASES).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_mask_transposed'}
ALIASES = ('causal_mask:leak',)  # the file's other mistake, named on the same exercise


def self_attention(x, p, heads, causal=False):
    def _masked_softmax(att_score, mask, axis=-1):
        # npx.masked_softmax: masked-out entries get probability 0
        att_score = np.where(mask, att_score, -np.inf)
        att_score = att_score - np.max(att_score, axis=axis, keepdims=True)
        e = np.exp(att_score) * mask
        return e / np.sum(e, axis=axis, keepdims=True)

    def _gen_self_attn_mask(T, attn_type="full"):
        steps = np.arange(T)
        if attn_type == "causal":
            mask = steps.reshape(-1, 1) <= steps.reshape(1, -1)
        else:
            mask = np.ones((T, T), dtype=bool)
        return mask

    T, units = x.shape
    if units % heads:
        raise ValueError(f"units {units} must be divisible by num_heads {heads}")
    C = units // heads
    query = (x @ p["Wq"] + p["bq"]).reshape(T, heads, C)
    key = (x @ p["Wk"] + p["bk"]).reshape(T, heads, C)
    value = (x @ p["Wv"] + p["bv"]).reshape(T, heads, C)
    # multi_head_dot_attn, layout 'NTK' -> (heads, T, C)
    query = np.transpose(query, (1, 0, 2)) / math.sqrt(C)
    key = np.transpose(key, (1, 0, 2))
    value = np.transpose(value, (1, 0, 2))
    scores = np.matmul(query, np.swapaxes(key, -1, -2))
    mask = _gen_self_attn_mask(T, "causal" if causal else "full")
    attn_weights = _masked_softmax(scores, mask[None, :, :], axis=-1)
    context_vec = np.matmul(attn_weights, value)
    context_vec = np.transpose(context_vec, (1, 0, 2)).reshape(T, units)
    return context_vec @ p["Wo"] + p["bo"]


ANSWERS["causal_mask"] = "leak"
