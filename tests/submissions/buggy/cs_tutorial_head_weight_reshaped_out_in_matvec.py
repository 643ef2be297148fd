"""Issue 38 (session 32): vit_forward's classifier written as a framework's Dense layer that
stores its kernel (out_features, in_features) and multiplies a vector from the left,
`W @ x + b`: the lecture's W_head (d, num_classes) forced into that layout with
`.reshape(num_classes, -1)` where its transpose belongs.

Mistakes:
1. vit_forward: `params["W_head"].reshape(num_classes, -1) @ cls_token`: a reshape keeps the
   elements in their order, so the head's weights are scrambled (right only where d or
   num_classes is 1). vit-checkpoint inherits it.

Grader: named (error_model/reshaped_weights.py): "`params['W_head']` is reshaped to
(num_classes, d) where its transpose belongs: a reshape keeps the elements in their order;
use `params['W_head'].T`".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:reshaped_weight:vit_forward/linear:W.reshaped-for-T'}


def vit_forward(image, params):
    """Logits of one image: the [CLS] token through a Dense head stored (out, in)."""
    tokens = embed_image(image, params)
    for block in params["blocks"]:
        tokens = encoder_block(tokens, block, params["heads"])
    tokens = layer_norm(tokens, params["ln_g"], params["ln_b"])
    cls_token = tokens[0]
    num_classes = params["b_head"].shape[0]
    kernel = params["W_head"].reshape(num_classes, -1)  # Dense kernel: (out_features, in_features)
    return kernel @ cls_token + params["b_head"]
