"""Blind round 44 (b44_11, issue 38): vit_forward ported from tf2bert's ALBERT model (code-search
file id 37024222499: class ALBERT(BERT), one hidden layer shared by every pass; post-LN blocks, no
final norm).

Mistakes:
1. vit_forward: loops len(blocks) times but always with `layer = params["blocks"][0]`, read
   before the loop (ALBERT's weight sharing): the later blocks' weights are ignored, and an empty
   list raises IndexError.
2. vit_forward: no final `layer_norm(x, params["ln_g"], params["ln_b"])` before the head.

Grader: at blind time (0fc72e8) both were named in one hint on vit-forward ("2 mistakes at once:
(1) In `vit_forward`, the step `layer_norm(x, params['ln_g'], params['ln_b'])` is left out ...
(2) ... every pass of `for block in params['blocks']` uses the first one,
`params['blocks'][0]`, instead of `block`."), and so again since: the ViT with no blocks
that 8f3bc1ef gave vit-forward's visible check (where this file raises IndexError and the pair
returns logits, so for a while nothing was named) was taken out again (a degenerate input no
user passes that cost code right on every model 3 of 7 points). vit-checkpoint observes
vit_forward. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:skip:vit_forward:skip-layer_norm+op:loop:vit_forward:block-first'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    x = embed_image(image, params)
    num_hidden_layers = len(params["blocks"])
    layer = params["blocks"][0]
    for index in range(num_hidden_layers):
        x = encoder_block(x, layer, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
