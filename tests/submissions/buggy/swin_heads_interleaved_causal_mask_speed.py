"""Blind round 19 (b19_03, issue 38): self_attention and the answers ported from Microsoft's Swin
Transformer (`WindowAttention`, one window = the whole image), names N, C, num_heads.

Mistakes:
1. self_attention splits the heads as `reshape(N, C // num_heads, num_heads).transpose(2, 0, 1)`
   (head h takes the interleaved columns h, h + heads, ...) and merges them back the same way,
   where `reshape(N, num_heads, C // num_heads).transpose(1, 0, 2)` belongs (right with one head).
2. ANSWERS["causal_mask"] is "speed" (Swin's masks as an efficiency device), not "bidirectional".

Grader: at blind time and now, both named: attention_heads_interleaved on multi-head-attention and
causal_mask:speed on no-causal-mask (whose causal checks observe only_one_head / some_rows_wrong
for the heads). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved', 'no-causal-mask': 'causal_mask:speed'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    q = (x @ p["Wq"] + p["bq"]).reshape(N, C // num_heads, num_heads).transpose(2, 0, 1)
    k = (x @ p["Wk"] + p["bk"]).reshape(N, C // num_heads, num_heads).transpose(2, 0, 1)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, C // num_heads, num_heads).transpose(2, 0, 1)

    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((N, N)), k=1)
        attn = np.where(mask[None] != 0, float('-inf'), attn)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 2, 0).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x


ANSWERS["causal_mask"] = "speed"
