"""Blind round 40 (b40_11, issue 38): vit_forward written after the Keras ViT of
kurupdeepak/nutrition (core-one/vit/vit_config.py: transformer_layers = 4 and the model's
"for _ in range(transformer_layers)" loop, then LayerNormalization before the head). The
module-level constant `transformer_layers = 4` is local to vit_forward here: the builder replaces
only the solution's own definitions.

Mistakes:
1. vit_forward: loops over a fixed `range(transformer_layers)`, 4 blocks, instead of every block
   of params["blocks"]: IndexError with fewer than 4 blocks, the blocks after the fourth left out
   with more.

Grader: at blind time (b589706), observed only: vit-forward's visible check (one block:
IndexError, its traceback at `params["blocks"][i]`) and hidden check gave the checklist "...
every block of params["blocks"], ..." (true), no hint named the fixed count. Now named on both
(every case has 1 or 2 blocks, so every case raises "list index out of range"): "the loop over
`params['blocks']` reads it past its end, which raises IndexError: written with an index of its
own (`for i in range(n)` ..., n a fixed depth such as a Keras config's `transformer_layers`, or
`len(params['blocks']) + 1`) ..." (past_end.loop_past_end); vit-checkpoint observes the broken
vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop_past_end:vit_forward:block-loop-past-end'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    transformer_layers = 4  # vit_config.py's module constant, here local
    encoded_patches = embed_image(image, params)
    for i in range(transformer_layers):
        encoded_patches = encoder_block(encoded_patches, params["blocks"][i], params["heads"])
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    return representation[0] @ params["W_head"] + params["b_head"]
