"""Blind round 7 (b7_02, issue 38): self_attention with one fused qkv projection split in GPT-
NeoX/Megatron's per-head layout, and an encoder_block whose first MLP bias comes after the
activation.

Mistakes:
1. self_attention: Wq|Wk|Wv are concatenated into one (d, 3d) matrix, but the fused output is
   split with reshape(T, heads, 3, d_h), the per-head interleaved [q_h k_h v_h] layout of
   GPT-NeoX/Megatron/apex (NVIDIA/apex#1131), not [q | k | v]. Shows only with heads > 1 (with
   one head the three blocks come out right).
2. encoder_block: the MLP's first bias is added after the activation, gelu(h @ W1) + b1
   (infer-actively/pypc#2 pattern). Shows whenever b1 != 0.

Grader: both are named now: the fused product split as (heads, 3, d_h), and the bias added
after the activation. (At first the split was only observed, "right with one head", and the
bias got encoder-block's checklist, none of whose steps held it: a wrong hint in
blind7-measure.md.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'encoder-block': 'op:bias_after:encoder_block/mlp:p[\'b1\']-after-activation'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    hd = d // heads
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (d, 3d)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ W_qkv + b_qkv                                       # (T, 3d)
    qkv = qkv.reshape(T, heads, 3, hd).transpose(2, 1, 0, 3)      # (3, heads, T, hd)
    q, k, v = qkv[0], qkv[1], qkv[2]
    att = (q @ np.swapaxes(k, -1, -2)) * hd ** -0.5
    if causal:
        future = np.triu(np.ones((T, T), dtype=bool), 1)
        att = np.where(future, -np.inf, att)
    att = softmax(att, axis=-1)
    y = (att @ v).transpose(1, 0, 2).reshape(T, d)
    return y @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gelu(h @ p["W1"]) + p["b1"]
    return x + h @ p["W2"] + p["b2"]
