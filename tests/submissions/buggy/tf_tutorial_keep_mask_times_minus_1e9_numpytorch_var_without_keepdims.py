"""Blind round 48 (b48_05, issue 38): self_attention ported from the TensorFlow tutorial's
`scaled_dot_product_attention` (code-search file id 9163419326: `scaled_attention_logits +=
(mask * -1e9)`, as in ids 1428528356 and 24311719016) and layer_norm from a "numpytorch"
LayerNorm (id 38404562883: `(x - mean(x, -1, keepdims=True)) / (var(x, -1) + self.eps) ** 0.5 *
self.gamma + self.beta`).

Mistakes:
1. `self_attention`: the mask convention is inverted: `mask = np.tril(np.ones((T, T)))` (1 = may
   attend) fed to the TF formula, where 1 = hide: with causal=True each token attends only to
   later ones (the last row, fully masked, equals the unmasked one). causal=False is right.
2. `layer_norm`: the variance is taken without keepdims (`x.var(-1)`): (T, d) input with T != d
   raises (broadcast (T, d) against (T,)); with T == d row i is divided by row j's standard
   deviation. 1-D and (1, d) input are right.

Grader: at blind time (4b7c886d) and now, named: "In `self_attention` (at the lecture's step
`attention(q, k, v, mask)`), the mask is added as if it marked the hidden keys, `scores + mask *
-1e9` (the TensorFlow tutorial's `mask * -1e9`, 1 where a key is hidden) ..." on no-causal-mask;
"In `layer_norm`, `np.var(x, axis=-1, keepdims=True)` is computed without keepdims=True: the
reduced axis is dropped, so the result broadcasts along the wrong axis." on layer-norm (one check
says it hedged: "One slip, at one or more of these places (the cases cannot tell which): (1) ...
`np.mean(...)` ... (2) ... `np.var(...)` ..."); vit-checkpoint observes both. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:keepdims:layer_norm:var.keepdims',
          'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """numpytorch's LayerNorm.forward: `(x - mean(x, -1, keepdims=True)) / (var(x, -1) + eps) ** 0.5 * gamma + beta`."""
    return (x - x.mean(-1, keepdims=True)) / (x.var(-1) + eps) ** 0.5 * gamma + beta


def self_attention(x, p, heads, causal=False):
    """The TensorFlow tutorial's split_heads and scaled_dot_product_attention (`mask * -1e9`), fed a keep-mask."""
    seq_len, d_model = x.shape
    num_heads = heads
    if d_model % num_heads != 0:
        raise ValueError(f"d_model {d_model} is not divisible by num_heads {num_heads}")
    depth = d_model // num_heads

    def split_heads(t):
        """(seq_len, d_model) -> (num_heads, seq_len, depth)"""
        t = t.reshape(seq_len, num_heads, depth)
        return t.transpose(1, 0, 2)

    def scaled_dot_product_attention(q, k, v, mask):
        matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))  # (..., seq_len_q, seq_len_k)
        dk = k.shape[-1]
        scaled_attention_logits = matmul_qk / np.sqrt(dk)
        if mask is not None:
            scaled_attention_logits += (mask * -1e9)
        attention_weights = softmax(scaled_attention_logits, axis=-1)
        output = np.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)
        return output, attention_weights

    mask = np.tril(np.ones((seq_len, seq_len))) if causal else None

    q = split_heads(x @ p["Wq"] + p["bq"])
    k = split_heads(x @ p["Wk"] + p["bk"])
    v = split_heads(x @ p["Wv"] + p["bv"])
    scaled_attention, _ = scaled_dot_product_attention(q, k, v, mask)
    concat_attention = scaled_attention.transpose(1, 0, 2).reshape(seq_len, d_model)
    return concat_attention @ p["Wo"] + p["bo"]
