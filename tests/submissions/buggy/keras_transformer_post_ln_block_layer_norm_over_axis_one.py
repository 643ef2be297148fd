"""Blind round 76 (b76_12, issue 38): encoder_block and layer_norm ported from AlephVenXm/Main
`End-To-End_things/KerasTransformer/KerasTransformer.md`.

Mistakes:
1. encoder_block (`Transformer.block`, lines 87-89 of the file as delivered): post-LN,
   `LN(x + attn(x))` then `LN(h + ffn(h))` (the source's Add/LayerNorm arrangement), with no
   pre-norm. Wrong on every input; vit_forward inherits it.
2. layer_norm (lines 63-64): the mean and var taken over `axis=1`, not the last axis. Right for
   (T, d) and 1-D input, wrong for batched (B, T, d) input. (`eps=10e-7` is the source's spelling
   of 1e-6.)
The delivered file's methods of its `Transformer` class, wrapped by module functions, are the
module functions here (`self.attn` and `self.ffn` written as self_attention and the MLP inline);
its vit_forward, which ran the class's own post-LN block, is the solution's here.

Grader: at blind time (fe8b70f1) and now, 90/110. Mistake 1 named on encoder-block ("That is a
post-LN block (LayerNorm after each residual sum ...)") and, in the file as delivered,
vit-forward ("Your blocks are post-LN; ViT's are pre-LN ..."), mistake 2 on layer-norm ("...
`np.mean(x, axis=-1, keepdims=True)` taken over axis 1, instead of over axis -1", the same for
var). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'encoder-block': 'encoder_post_ln'}


def layer_norm(x, gamma, beta, eps=10e-7):  # layer norm
    mean = x.mean(axis=1, keepdims=True) if x.ndim > 1 else x.mean(keepdims=True)
    var = x.var(axis=1, keepdims=True) if x.ndim > 1 else x.var(keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def encoder_block(x, p, heads):
    """Transformer.block: Add then LayerNorm after each branch (Keras' post-LN arrangement)."""
    attn = self_attention(x, p, heads)
    attn_block = layer_norm(x + attn, p["ln1_g"], p["ln1_b"])
    ffn = gelu(attn_block @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]  # feed-forward net
    return layer_norm(attn_block + ffn, p["ln2_g"], p["ln2_b"])
