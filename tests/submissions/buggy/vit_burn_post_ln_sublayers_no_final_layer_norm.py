"""Blind round 47 (b47_01, issue 38): encoder_block and vit_forward ported from
aneesh-aparajit/vit-burn (Rust, burn): src/layers/encoder.rs Encoder::forward (`x = ln1(mha(x)) +
x_`, `x = ln2(mlp(x)) + x_`), src/layers/mlp.rs Mlp::forward (linear1 -> Gelu -> linear2),
src/model.rs ViTModel::forward and pooler.rs (a Linear on the [CLS] row).

Mistakes:
1. `encoder_block`: post-LN sublayers: attention and the MLP read the raw x and the LayerNorm is
   applied to each sublayer's OUTPUT before the residual add, instead of `x + attn(LN(x))`,
   `x + mlp(LN(x))`. Wrong on every input.
2. `vit_forward`: no final LayerNorm (burn's ViTModel declares `ln1` but forward never applies
   it): the [CLS] row goes straight into W_head, b_head. Wrong on every input.

Grader: at blind time (a4c32119) and now, named: at blind time "One slip, made at 2 places: (1) In
`encoder_block`, the two steps of `self_attention(layer_norm(x, p['ln1_g'], p['ln1_b'], eps), p,
heads)` run in the other order ..." (now: "One slip, made at 2 places: (1) In `encoder_block`, the
two steps of the model solution's `self_attention(layer_norm(x, p['ln1_g'], p['ln1_b'], eps), p,
heads)` run in the other order ...") on encoder-block; "The head reads tokens that did not go
through the final LayerNorm (skipped, or its result left unused) ..." on vit-forward (graded with
the grader's encoder_block); vit-checkpoint observes encoder_block and vit_forward. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:steps:encoder_block:self_attention-and-layer_norm-swapped'
                           '+op:steps:encoder_block:mlp-and-layer_norm.2-swapped',
          'vit-forward': 'vit_final_ln_skipped'}


def encoder_block(x, p, heads):
    """Encoder::forward from vit-burn (src/layers/encoder.rs)."""
    def _mlp_forward(inputs, p):
        """Mlp::forward: linear1 -> Gelu -> (dropout) -> linear2."""
        x = gelu(inputs @ p["W1"] + p["b1"])
        x = x @ p["W2"] + p["b2"]
        return x

    x_ = x.copy()
    x = self_attention(x, p, heads)                   # self.mha.forward(inputs)
    x = layer_norm(x, p["ln1_g"], p["ln1_b"]) + x_    # self.ln1.forward(x) + x_
    x_ = x.copy()
    x = _mlp_forward(x, p)                            # self.mlp.forward(x)
    return layer_norm(x, p["ln2_g"], p["ln2_b"]) + x_ # self.ln2.forward(x) + x_


def vit_forward(image, params):
    """ViTModel::forward (src/model.rs): embeddings, then every encoder in order; the
    pooler (a Linear) on the [CLS] row gives the logits."""
    patch_outputs = embed_image(image, params)   # patch_embedding + positional_embedding
    x = patch_outputs
    for lyr in params["blocks"]:                 # for lyr in self.encoders.clone()
        x = encoder_block(x, lyr, params["heads"])
    pooled = x[0]
    return pooled @ params["W_head"] + params["b_head"]
