"""Blind round 39 (b39_15, issue 38): vit_forward's encoder loop ported from Hugging Face
transformers src/transformers/models/albert/modeling_albert.py (AlbertTransformer.forward:
group_idx over albert_layer_groups).

Mistakes:
1. vit_forward: ALBERT's parameter-sharing loop, group_idx = int(i / (num_layers /
   num_hidden_groups)) with num_hidden_groups = 1: blocks[0] is applied len(blocks) times and
   the other blocks are never used. Shows only when the blocks differ.

Grader: at blind time (b589706) and now, named: "every pass of `for block in params['blocks']`
uses the first one, `params['blocks'][0]`, instead of `block`" on vit-forward (its case of two
blocks, and the hidden check); vit-checkpoint observes the broken vit_forward. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop:vit_forward:block-first'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    hidden_states = embed_image(image, params)
    albert_layer_groups = params["blocks"]
    num_hidden_layers = len(params["blocks"])
    num_hidden_groups = 1
    for i in range(num_hidden_layers):
        # Index of the hidden group
        group_idx = int(i / (num_hidden_layers / num_hidden_groups))
        hidden_states = encoder_block(hidden_states, albert_layer_groups[group_idx], params["heads"])
    sequence_output = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    pooled = sequence_output[0]
    return pooled @ params["W_head"] + params["b_head"]
