"""Blind round 9 (b9_07, issue 38): a submission ported from Hugging Face transformers
models/vit/modeling_vit.py (ViTEmbeddings, ViTSelfAttention), with timm's _pos_embed.

Mistakes:
1. embed_image: positions added to the patch tokens only (pos[1:]) before [CLS] is
   prepended, as timm's `_pos_embed` does with no_embed_class=True; [CLS] never gets
   pos[0]. Shows on every input (row 0 differs by pos[0]).
   Sources: timm vision_transformer._pos_embed (no_embed_class branch; copy in
   Ace1928/eidosian_forge archive_forge/code/func__pos_embed.py); HF ViTEmbeddings adds
   position_embeddings after the concat.
2. self_attention: after attention the context (heads, T, d_h) is reshaped straight to
   (T, d) without HF's `context_layer.permute(0, 2, 1, 3)`, mixing tokens and heads.
   Shows only with several heads (and T > 1).
   Sources: jsbaan/transformer-from-scratch issue #4 / PR #6 ("missing permute before a
   reshape in multi-head attention"); ajhalthor/Transformer-Neural-Network issue #1, PR #4;
   chelsea0x3b/dfdx issue #158.

Grader: both named: embed_positions_before_cls ("You added the positions before prepending [CLS]")
and op:transpose ("the heads' outputs are merged by a reshape without moving the head axis back
first ...", in no-causal-mask too); why-positions' permutation property says the merge breaks
equivariance (attention_not_equivariant, a checklist: an alias).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def embed_image(image, params):
    """ViTEmbeddings: patch embeddings, position embeddings, [CLS]."""
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # timm _pos_embed (no_embed_class): position embedding on the patches, then the class token
    embeddings = embeddings + params["pos"][1:]
    cls_tokens = params["cls"][None, :]
    return np.concatenate([cls_tokens, embeddings], axis=0)


def self_attention(x, p, heads, causal=False):
    """ViTSelfAttention + ViTSelfOutput: (seq_len, hidden_size) -> (seq_len, hidden_size)."""
    seq_len, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError(
            f"The hidden size {hidden_size} is not a multiple of the number of attention heads {heads}."
        )
    head_size = hidden_size // heads

    def transpose_for_scores(t):
        return t.reshape(seq_len, heads, head_size).transpose(1, 0, 2)

    query_layer = transpose_for_scores(x @ p["Wq"] + p["bq"])
    key_layer = transpose_for_scores(x @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(x @ p["Wv"] + p["bv"])
    attention_scores = query_layer @ key_layer.transpose(0, 2, 1) / math.sqrt(head_size)
    if causal:
        causal_mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attention_scores = np.where(causal_mask, np.finfo(attention_scores.dtype).min, attention_scores)
    attention_probs = softmax(attention_scores, axis=-1)
    context_layer = attention_probs @ value_layer                 # (heads, seq_len, head_size)
    context_layer = context_layer.reshape(seq_len, hidden_size)   # new_context_layer_shape
    return context_layer @ p["Wo"] + p["bo"]
