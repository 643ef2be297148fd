"""Blind round 42 (b42_08, issue 38): vit_forward ported from a Flax ViT (code-search file id
25330159250: VisualTransormer, `out = self.encoder_layers[0](out)`, then `for layer in
self.encoder_layers[1:]`, then `self.head(out[:, self.cls_index, :])`; TransformerHead is
Dropout + Dense, dropout off at inference).

Mistakes:
1. No final layer_norm (ln_g, ln_b) before the head: the [CLS] row of the last block goes
   straight into W_head.
2. With params["blocks"] == [] it raises IndexError (encoder_layers[0] is called before the
   loop), where the lecture returns the logits.

Grader: at blind time (e77cb46) and now, mistake 1 named (vit_final_ln_skipped: "The head reads
tokens that did not go through the final LayerNorm") on vit-forward's visible and hidden checks;
mistake 2 not told: the visible check has one and two blocks only and the hidden check reports
its first failure, mistake 1's. vit-checkpoint observes vit_forward. A case with
params["blocks"] == [] named it for a while (8f3bc1ef, with `past_end.loop_peeled`); it was taken
out again: a degenerate input no user passes, it cost code right on every model 3 of
vit-forward's 7 points and took the named pair from round 44's b44_11 (ALBERT's shared
blocks[0], read before its loop). No checked input reaches mistake 2. In unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_final_ln_skipped'}


def vit_forward(image, params):
    """VisualTransormer.__call__ for one image (dropout is off at inference)."""
    cls_index = 0
    heads = params["heads"]
    encoder_layers = [
        (lambda h, block=block: encoder_block(h, block, heads)) for block in params["blocks"]
    ]

    def head(h):
        # TransformerHead: Dropout, then Dense(output_dim)
        return h @ params["W_head"] + params["b_head"]

    out = embed_image(image, params)
    out = encoder_layers[0](out)
    for layer in encoder_layers[1:]:
        out = layer(out)
    out = head(out[cls_index, :])
    return out
