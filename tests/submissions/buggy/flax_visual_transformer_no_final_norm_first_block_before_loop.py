"""Blind round 42 (b42_08, issue 38): vit_forward ported from a Flax ViT (code-search file id
25330159250: VisualTransormer, `out = self.encoder_layers[0](out)`, then `for layer in
self.encoder_layers[1:]`, then `self.head(out[:, self.cls_index, :])`; TransformerHead is
Dropout + Dense, dropout off at inference).

Mistakes:
1. No final layer_norm (ln_g, ln_b) before the head: the [CLS] row of the last block goes
   straight into W_head.
2. With params["blocks"] == [] it raises IndexError (encoder_layers[0] is called before the
   loop), where the lecture returns the logits.

Grader: at blind time (e77cb46), mistake 1 named (vit_final_ln_skipped) on vit-forward's
visible and hidden checks; mistake 2 not told: no case had zero blocks. Now the visible check
has a case with params["blocks"] == [], where this code raises IndexError and the listed
vit_final_ln_skipped returns a value: the error model names both (op:skip's final layer_norm
left out, with past_end.loop_peeled: `params['blocks'][0]` read whatever the list holds, the
list's own IndexError where it is empty; kinds/raised_elsewhere.py asks for it). The hidden
check (one and two blocks) keeps vit_final_ln_skipped. vit-checkpoint observes vit_forward.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:skip:vit_forward:skip-layer_norm+op:loop_peeled:vit_forward:block-loop-peeled'}
ALIASES = ('vit_final_ln_skipped',)  # the hidden check's listed name for mistake 1


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
