"""Blind round 23 (b23_02, issue 38): self_attention and encoder_block ported from Mistral's
reference (mistralai/mistral-src, one_file_ref.py: Attention.forward always given the causal /
sliding-window mask `torch.log(torch.triu(torch.tril(ones), diagonal=-sliding_window))`, einsum
over (T, heads, d_h), FeedForward `w2(silu(w1(x)))`). The student's top-level `SLIDING_WINDOW`,
`_make_mask` (self_attention) and `_silu` (encoder_block) are nested in the functions that use
them here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention builds the mask and adds it to the scores whatever `causal` says (a decoder is
   always causal): the flag is accepted and ignored, so the default call hides later tokens.
2. encoder_block's MLP keeps Mistral's SiLU, x * sigmoid(x), instead of GELU.

Grader: at blind time and now, both named: the mask applied whatever `causal` says ("`... if
causal else None` is always `causal_mask(...)`") on no-causal-mask, with its default-call
checklist (gpt_causal_mask, ALIASES), "You applied GPT's causal mask although causal is False" on
multi-head-attention, and SiLU where the lecture uses GELU on encoder-block; why-positions gets its
equivariance checklist (ALIASES); vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/. Since blind round 39 no-causal-mask's check of causal=False lists
attention_causal too: the mask is told in the same words there as on multi-head-attention.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'encoder-block': 'op:activation:encoder_block/mlp:act=silu'}
ALIASES = ('gpt_causal_mask',  # the default-call check's checklist for the same mask
           'attention_not_equivariant')  # the permutation property's verdict on the mask


def self_attention(x, p, heads, causal=False):
    SLIDING_WINDOW = 4096

    def _make_mask(seqlen, sliding_window=SLIDING_WINDOW):
        tensor = np.ones((seqlen, seqlen))
        mask = np.tril(tensor, k=0)
        mask = np.triu(mask, k=-sliding_window)
        with np.errstate(divide="ignore"):
            return np.log(mask)

    seqlen, dim = x.shape
    if dim % heads:
        raise ValueError("dim % n_heads != 0")
    head_dim = dim // heads
    scale = head_dim ** -0.5
    xq, xk, xv = (x @ p["W" + s] + p["b" + s] for s in "qkv")
    xq = xq.reshape(seqlen, heads, head_dim)
    xk = xk.reshape(seqlen, heads, head_dim)
    xv = xv.reshape(seqlen, heads, head_dim)
    scores = np.einsum("qhd,khd->hqk", xq, xk) * scale
    mask = _make_mask(seqlen)
    scores = scores + mask[None]
    scores = softmax(scores, axis=-1)
    output = np.einsum("hqk,khd->qhd", scores, xv)
    return output.reshape(seqlen, dim) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def _silu(x):
        return x / (1.0 + np.exp(-x))

    r = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = x + r
    r = _silu(layer_norm(h, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return h + r
