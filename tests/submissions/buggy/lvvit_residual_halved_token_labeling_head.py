"""Blind round 61 (b61_10, issue 38): encoder_block and vit_forward ported from
zihangJiang/TokenLabeling `tlt/models/lvvit.py` (LV_ViT.forward_tokens with `skip_lam = 2.0`;
LV_ViT.forward's `return_dense` inference head) and `tlt/models/layers.py` (Block). The student's
top-level `mlp` is nested in encoder_block here: the builder replaces only the solution's own
definitions.

Mistakes:
16. encoder_block (lines 104-106 of the file as delivered): LV-ViT's `skip_lam = 2.0`: both
    residual branches (attention and MLP) are divided by 2. Wrong on any input.
17. vit_forward (lines 116-117): the token-labeling head: the [CLS] logits plus
    `0.5 * max` over the patch tokens' outputs of the same head. Wrong on any input.

Grader: at blind time (90d6c97e) and now, 92/110. Mistake 16 named on encoder-block's two checks
("One slip, made at 2 places: (1) In `encoder_block`, the branch ... is added back scaled by 0.5
..."). Mistake 17 not named: vit-forward's two checks get only the checklist ("Check the order:
embed, every block ..., the final LayerNorm, and the [CLS] row (row 0) through W_head, b_head:
those logits are the result, with no softmax or other function after them."); vit-checkpoint
observes vit_forward and encoder_block. A hint would say that `vit_forward` adds 0.5 x the max
over the patch tokens' head outputs to the [CLS] logits, where only
`x[0] @ W_head + b_head` belongs. Being mended: not every mistake named, so in unnamed/; EXPECT
holds what must hold today: the points lost, no wrong cause, mistake 16 still named.
Named since, in the same session (error_model/readouts.py's head_plus_others, the [CLS]
logits plus 0.5 x the max of the other tokens' head outputs): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual_scaled:encoder_block:self_attention-branch-times-0.5'
                           '+op:residual_scaled:encoder_block:mlp-branch-times-0.5',
          'vit-forward': 'op:head_plus_others:vit_forward:x[0]-plus-0.5-max-after'}


def encoder_block(x, p, heads, skip_lam=2.0):
    def mlp(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads) / skip_lam
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p) / skip_lam
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x_cls = x[0] @ params["W_head"] + params["b_head"]
    x_aux = x[1:] @ params["W_head"] + params["b_head"]
    return x_cls + 0.5 * x_aux.max(0)
