"""Blind round 27 (b27_07, issue 38): layer_norm and self_attention ported from NVIDIA Megatron-LM
(megatron/model/transformer.py ParallelAttention: one query_key_value projection,
`mixed_x_layer.view(sq, b, np, 3 * hn)` then `split_tensor_along_last_dim(mixed_x_layer, 3)`;
norm_factor = sqrt(hn); attention_mask_func filling -10000.0; MixedFusedLayerNorm(eps =
args.layernorm_epsilon)). The student's module constant `LAYERNORM_EPSILON = 1e-5` is a local of
layer_norm here, and the top-level helper `_split_tensor_along_last_dim` is nested in
self_attention: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention concatenates Wq | Wk | Wv into one (d, 3d) matrix, then splits it Megatron's
   way, per head [q_h k_h v_h] blocks of 3 * hn: head h takes columns of the wrong projections
   (right with one head only).
2. layer_norm ignores its eps argument for the config's fixed 1e-5: shows with a passed eps or on
   near-constant tokens.

Grader: at blind time and now, (1) named: the fused product split per token as (heads, 3, d_h)
where its columns are (3, heads, d_h), on no-causal-mask and multi-head-attention; (2) not named:
observed as the expected values times 1.183 (one scale factor off) and, on the hidden check, as
wrong in 2 of 4 columns; vit-checkpoint observes the broken functions.
Since session 14 (port27): (2) named too, `eps` fixed at 1e-05 (a library's usual default)
whatever is given (op:default, an epsilon parameter fixed at another library default): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """MixedFusedLayerNorm(config.hidden_size, eps=config.layernorm_epsilon)."""
    LAYERNORM_EPSILON = 1e-5   # args.layernorm_epsilon
    mu = x.mean(axis=-1, keepdims=True)
    sigma2 = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    invvar = 1.0 / np.sqrt(sigma2 + LAYERNORM_EPSILON)
    return (x - mu) * invvar * gamma + beta


def self_attention(x, p, heads, causal=False):
    def _split_tensor_along_last_dim(tensor, num_partitions):
        last_dim_size = tensor.shape[-1] // num_partitions
        return [tensor[..., i * last_dim_size:(i + 1) * last_dim_size] for i in range(num_partitions)]

    sq, h = x.shape
    if h % heads:
        raise ValueError(f"hidden size {h} is not divisible by num_attention_heads {heads}")
    np_ = heads                    # num_attention_heads_per_partition
    hn = h // heads                # hidden_size_per_attention_head
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    # Attention heads [sq, h] --> [sq, (np * 3 * hn)]
    mixed_x_layer = x @ W_qkv + b_qkv
    # [sq, (np * 3 * hn)] --> [sq, np, 3 * hn]
    mixed_x_layer = mixed_x_layer.reshape(sq, np_, 3 * hn)
    # [sq, np, 3 * hn] --> 3 [sq, np, hn]
    query_layer, key_layer, value_layer = _split_tensor_along_last_dim(mixed_x_layer, 3)
    # [sq, np, hn] -> [np, sq, hn]
    q = query_layer.transpose(1, 0, 2)
    k = key_layer.transpose(1, 0, 2)
    v = value_layer.transpose(1, 0, 2)
    norm_factor = math.sqrt(hn)
    matmul_result = q @ k.transpose(0, 2, 1) / norm_factor    # [np, sq, sk]
    if causal:
        attention_mask = np.triu(np.ones((sq, sq), dtype=bool), 1)
        matmul_result = np.where(attention_mask, -10000.0, matmul_result)  # attention_mask_func
    attention_probs = softmax(matmul_result, axis=-1)
    context_layer = attention_probs @ v                          # [np, sq, hn]
    # [np, sq, hn] --> [sq, np, hn] --> [sq, hp]
    context_layer = context_layer.transpose(1, 0, 2).reshape(sq, h)
    return context_layer @ p["Wo"] + p["bo"]                     # dense
