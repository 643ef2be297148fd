"""Blind round 35 (b35_02, issue 38): self_attention and vit_forward ported from
tflahaul/jax-vision-transformers, vit.py (Flax: MHDPAttention, whose scores are divided by
`jnp.sqrt(self.dim)` with dim the model width, and ViT.__call__, which has no final LayerNorm).

Mistakes:
1. self_attention divides the scores by sqrt(d), the model width, instead of sqrt(d_h). Wrong
   with several heads only.
2. vit_forward has no final LayerNorm: ln_g, ln_b unused, the [CLS] row goes straight to the
   head.

Grader: at blind time and now, both named: "the scores are divided by sqrt(d) (at your line `logits
= np.matmul(q, np.moveaxis(k, 1, 2)) / np.sqrt(dim)`), the model width, instead of sqrt(d_h)" on
no-causal-mask and multi-head-attention; "The head reads tokens that did not go through the final
LayerNorm" on vit-forward (graded with the grader's self_attention standing in); vit-checkpoint
observes self_attention and vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d', 'vit-forward': 'vit_final_ln_skipped'}


def self_attention(x, p, heads, causal=False):
    """MHDPAttention.__call__ for one sequence (L, E)."""
    L, E = x.shape
    if E % heads:
        raise ValueError(f"width {E} is not divisible by {heads} heads")
    dim = E
    out = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    q, k, v = [t.reshape(L, heads, E // heads).transpose((1, 0, 2)) for t in np.split(out, 3, -1)]
    logits = np.matmul(q, np.moveaxis(k, 1, 2)) / np.sqrt(dim)
    if causal:
        logits = np.where(np.tril(np.ones((L, L), dtype=bool)), logits, -np.inf)
    out = softmax(logits, axis=-1)
    out = np.matmul(out, v).transpose((1, 0, 2)).reshape(L, -1)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """ViT.__call__: patches + positions, the ResidualPreNorm stack, then the first token into the head."""
    out = embed_image(image, params)
    for block in params["blocks"]:
        out = encoder_block(out, block, params["heads"])
    out = out[0]
    out = out @ params["W_head"] + params["b_head"]
    return out
