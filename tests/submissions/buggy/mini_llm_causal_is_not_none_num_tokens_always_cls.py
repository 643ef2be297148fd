"""Blind round 54 (b54_07, issue 38): self_attention ported from ennajari/mini_llm_project
`transformers_building/model/attention.py` (a MultiHeadSelfAttention that always builds
`torch.tril` and `masked_fill(mask==0, -inf)`), here under `if causal is not None`; num_tokens from
the code-search excerpt `class Embedding` (`self.n_patches = (img_size // patch_size) ** 2` ...
`self.n_patches += 1` after the class token).

Mistakes:
1. num_tokens always adds 1, ignoring `cls_token`: cls_token=False gives N + 1 (224/16 -> 197,
   4x4 P=2 -> 5) instead of N. cls_token=True and the ValueError for non-tiling are right.
2. self_attention masks when `causal is not None`, which is true for the default `causal=False`:
   the causal mask is always applied. Every call with causal=False (explicit or default) and T > 1
   differs, for any heads; causal=True and T = 1 are right. encoder_block and vit_forward differ
   as a result.

Grader: at blind time (5f4a3d53) and now, both named: M1 on token-count ("With cls_token=False
there is no [CLS] row: the sequence is just the N patches." and, on the hidden check, "No [CLS]
token when cls_token is false."), M2 on multi-head-attention and no-causal-mask ("You applied GPT's
causal mask although causal is False: on patches it hides a "future" that does not exist. A
classifier ViT lets every patch look at every patch."; no-causal-mask's first check gives its
checklist, "Token 0 cannot see the last token. ..."); why-positions' self_attention check gives its
checklist ("Your self_attention depends on the order of its rows ..."), vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T: the patches plus the class token."""
    n_patches = num_patches(H, W, P)
    n_patches += 1
    return n_patches


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, C) -> (T, C), after MultiHeadSelfAttention.forward."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, head_dim)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, head_dim)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, head_dim)
    # transpose to (nh, T, hd)
    q = q.transpose(1, 0, 2)
    k = k.transpose(1, 0, 2)
    v = v.transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) / math.sqrt(head_dim)
    if causal is not None:
        mask = np.tril(np.ones((T, T)))[None, :, :]
        att = np.where(mask == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    out = att @ v
    out = out.transpose(1, 0, 2).reshape(T, C)
    return out @ p["Wo"] + p["bo"]
