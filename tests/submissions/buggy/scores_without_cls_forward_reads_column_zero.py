"""Blind round 6 (b6_11, issue 38): attention_scores counting the patch tokens only, and vit_forward
ported from batched PyTorch code (`x[:, 0]` is [CLS] for a (B, T, d) batch) to one unbatched
(T, d) sequence.

Mistakes:
1. attention_scores: returns (num_tokens - 1) ** 2, leaving [CLS] out of the count. Shows on every
   input.
2. vit_forward: takes x[:, 0] (the first column of every token, shape (T,)) instead of the [CLS]
   row x[0]. Raises a shape error when T != d, gives wrong logits when T == d.

Grader: both named. Every case of vit-forward has T != d, so the student's vit_forward raises on
all of them; the `x[:, 0]` rewrite (operators.off_by_one) raises numpy's very messages, which
names it (a function that only raised is named only by a raise with its message, not its type).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-minus-1',
          'vit-forward': 'op:index:vit_forward:x[:,0]'}


def attention_scores(num_tokens):
    """Every patch against every patch."""
    patches = num_tokens - 1
    return patches * patches


def vit_forward(image, params):
    """Logits: the [CLS] output through the head (x[:, 0] as timm's forward_head)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[:, 0]
    return cls @ params["W_head"] + params["b_head"]
