"""Blind round 28 (b28_02, issue 38): self_attention and vit_forward ported from Peter Bloem's
"Transformers from scratch" and pbloem/former (former/modules.py SelfAttention: heads folded into
the batch, queries and keys each scaled by s ** (1/4), bmm, util.mask_ for the causal mask;
former/transformers.py CTransformer with max_pool=True). The student's top-level helper `_mask_`
is nested in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention reshapes the (heads, T, s) output straight to (T, heads * s), without former's
   transpose(1, 2) back to (T, heads, s): right with one head only.
2. vit_forward max-pools the final-normed tokens over the sequence (CTransformer's max_pool=True)
   instead of taking the [CLS] row 0: wrong on every input.

Grader: at blind time and now, (1) named: `x.swapaxes(-2, -3)` used without its transpose in the
merge of the heads, on no-causal-mask and multi-head-attention (why-positions gets its
equivariance checklist); (2) not named: only vit_forward's checklist (embed, blocks, final
LayerNorm, the [CLS] row through W_head); vit-checkpoint observes the broken functions.
Since session 15 the max pooling is named (op:pool, `x[0]` read as `x.max(axis=0)`): every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'vit-forward': 'op:pool:vit_forward:x[0]-max-all'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p, heads, causal=False):
    def _mask_(matrices, maskval=0.0, mask_diagonal=True):
        """former.util.mask_: masks out the upper half of every matrix in a batch (in place)."""
        h, w = matrices.shape[-2], matrices.shape[-1]
        rows, cols = np.triu_indices(h, k=0 if mask_diagonal else 1, m=w)
        matrices[..., rows, cols] = maskval

    t, e = x.shape
    h = heads
    if e % h != 0:
        raise ValueError(f"Embedding dimension ({e}) should be divisible by nr. of heads ({h})")
    s = e // h

    keys = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]

    # fold heads into the batch dimension: (t, h, s) -> (h, t, s)
    keys = keys.reshape(t, h, s).transpose(1, 0, 2)
    queries = queries.reshape(t, h, s).transpose(1, 0, 2)
    values = values.reshape(t, h, s).transpose(1, 0, 2)

    queries = queries / (s ** (1 / 4))
    keys = keys / (s ** (1 / 4))

    dot = np.matmul(queries, keys.transpose(0, 2, 1))      # (h, t, t)
    if causal:
        _mask_(dot, maskval=float("-inf"), mask_diagonal=False)
    dot = softmax(dot, axis=2)

    out = np.matmul(dot, values)                           # (h, t, s)
    out = out.reshape(t, s * h)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """CTransformer.forward: tokens, tblocks, then pool the sequence and project to classes."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.max(axis=0)  # max_pool=True: pool over the sequence dimension
    return x @ params["W_head"] + params["b_head"]
