"""Blind round 31 (b31_06, issue 38): allenai/allennlp, allennlp/modules/layer_norm.py
(LayerNorm.forward; nn/util.py tiny_value_of_dtype, nested) and
modules/seq2seq_encoders/multi_head_self_attention.py (MultiHeadSelfAttention.forward with
util.masked_softmax, memory_efficient=True, nested): the attention is right (CORRECT).

Mistakes:
1. layer_norm: `gamma * (x - mean) / (std + 1e-13) + beta`: allennlp's tiny 1e-13 added to the
   standard deviation outside the root, where eps belongs inside sqrt(var + eps); the `eps`
   argument is never read. Shows on rows of small variance (about 1e-6 relative otherwise).

Grader: at blind time (fbf6cc7) and now, named: "In `layer_norm`, eps `eps` is left out of `var
+ eps`" on layer-norm's visible and hidden checks (the 1e-13 outside the root is negligible;
the fix it implies is the whole fix). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-eps'}
CORRECT = ('self_attention',)  # allennlp's MultiHeadSelfAttention, ported right


def layer_norm(x, gamma, beta, eps=1e-6):
    """allennlp LayerNorm: gamma * (x - mean) / (std + tiny) + beta."""

    def tiny_value_of_dtype(dtype):
        if dtype == np.float16:
            return 1e-4
        return 1e-13

    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)          # unbiased=False
    return gamma * (x - mean) / (std + tiny_value_of_dtype(std.dtype)) + beta


def self_attention(x, p, heads, causal=False):
    """MultiHeadSelfAttention.forward for one sequence, with util.masked_softmax."""

    def masked_softmax(vector, mask, dim=-1, memory_efficient=True):
        if mask is None:
            return softmax(vector, axis=dim)
        mask = mask.astype(bool)
        while mask.ndim < vector.ndim:
            mask = mask[None]
        if not memory_efficient:
            result = softmax(vector * mask, axis=dim)
            result = result * mask
            return result / (result.sum(axis=dim, keepdims=True) + 1e-13)
        masked_vector = np.where(mask, vector, np.finfo(vector.dtype).min)
        return softmax(masked_vector, axis=dim)

    timesteps, input_dim = x.shape
    num_heads = heads
    if input_dim % num_heads != 0:
        raise ValueError(f"Key size ({input_dim}) must be divisible by the number of attention heads ({num_heads}).")
    scale = (input_dim // num_heads) ** 0.5

    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    head_dim = input_dim // num_heads
    queries_per_head = queries.reshape(timesteps, num_heads, head_dim).transpose(1, 0, 2)
    keys_per_head = keys.reshape(timesteps, num_heads, head_dim).transpose(1, 0, 2)
    values_per_head = values.reshape(timesteps, num_heads, head_dim).transpose(1, 0, 2)

    scaled_similarities = (queries_per_head / scale) @ keys_per_head.transpose(0, 2, 1)
    mask = np.tril(np.ones((timesteps, timesteps))) if causal else None
    attention = masked_softmax(scaled_similarities, mask)

    outputs = attention @ values_per_head                     # (num_heads, timesteps, head_dim)
    outputs = outputs.transpose(1, 0, 2).reshape(timesteps, input_dim)
    outputs = outputs @ p["Wo"] + p["bo"]
    return outputs
