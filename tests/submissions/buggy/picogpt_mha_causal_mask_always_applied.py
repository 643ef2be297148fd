"""Blind round 49 (b49_01, issue 38): self_attention ported from jaymody/picoGPT, gpt2.py (`mha`:
`qkv_heads = list(map(lambda x: np.split(x, n_head, axis=-1), qkv))`, `causal_mask = (1 -
np.tri(x.shape[0], dtype=x.dtype)) * -1e10`, `np.hstack(out_heads)`; its helper `attention(q, k,
v, mask)`, top-level in the student's file, nested here), with biases read from p.

Mistakes:
1. The mask is always applied: `causal_mask` is built and added to every head's scores whatever
   `causal` says (the argument is never read). With causal=False (the default) and T > 1 each
   row sees only tokens 0..i, the solution's causal=True output; causal=True and T = 1 match.

Grader: at blind time (7e618553) and now, named on no-causal-mask and multi-head-attention: "You applied
GPT's causal mask although causal is False: on patches it hides a "future" that does not exist.
A classifier ViT lets every patch look at every patch."; why-positions and no-causal-mask's
"first token sees the last one" fail with the checklist, vit-checkpoint observes self_attention.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal'}
ALIASES = ('gpt_causal_mask', 'attention_not_equivariant')  # the properties' checklists on the mask


def self_attention(x, p, heads, causal=False):
    def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
        return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v

    if x.shape[-1] % heads != 0:
        raise ValueError(f"n_embd {x.shape[-1]} is not divisible by n_head {heads}")

    # qkv projection
    qkv = [x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]]  # [3, n_seq, n_embd]

    # split into heads
    qkv_heads = list(map(lambda x: np.split(x, heads, axis=-1), qkv))  # [3, n_head, n_seq, n_embd/n_head]

    # causal mask to hide future inputs from being attended to
    causal_mask = (1 - np.tri(x.shape[0])) * -1e10  # [n_seq, n_seq]

    # perform attention over each head
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]  # [n_head, n_seq, n_embd/n_head]

    # merge heads
    x = np.hstack(out_heads)  # [n_seq, n_embd]

    # out projection
    return x @ p["Wo"] + p["bo"]
