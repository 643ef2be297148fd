"""Blind round 33 (b33_14, issue 38): vit_forward ported from pbloem/former
(former/transformers.py, CTransformer.forward: the embeddings, the transformer blocks, global
pooling over the sequence, toprobs).

Mistakes:
1. CTransformer's `x.max(dim=1)[0] if self.max_pool else x.mean(dim=1)` with max_pool=True: the
   head reads a max over all the tokens instead of the [CLS] row.

Grader: at blind time (c4f83ef) and now, named: "`x[0]` is read as `x.max(axis=0)`: each
column's largest value over every row (max pooling of all the tokens), instead of row 0 alone"
on vit-forward; vit-checkpoint observes it. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool:vit_forward:x[0]-max-all'}


def vit_forward(image, params):
    max_pool = True      # If true, use global max pooling in the last layer. If false, use global average pooling.

    x = embed_image(image, params)                         # tokens + positions
    for block in params["blocks"]:                         # self.tblocks
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])

    x = x.max(axis=0) if max_pool else x.mean(axis=0)      # pool over the time dimension

    x = x @ params["W_head"] + params["b_head"]            # self.toprobs
    return x
