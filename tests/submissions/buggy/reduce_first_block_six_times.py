"""Written for issue 38 (session 32): vit_forward folds one encoder over a fixed depth with
functools.reduce, as a port of code that builds one block and calls it `depth` times (depth 6
hard-coded from its config).

Mistakes:
1. vit_forward applies `params["blocks"][0]` six times, whatever the number of blocks. Wrong for
   every model that is not six copies of block 0 (on every case but those whose blocks are the
   identity).

Grader: named (error_model/item_loops.py): "In `vit_forward`, `params['blocks'][0]` is applied 6
times, whatever the number of items in `params['blocks']` ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:first_fixed_times:vit_forward:block-0-6-times'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image: embed, the encoder `depth` times, norm, head."""
    import functools

    depth, encoder = 6, params["blocks"][0]
    x = functools.reduce(lambda h, _: encoder_block(h, encoder, params["heads"]), range(depth),
                         embed_image(image, params))
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
