"""Blind round 51 (b51_13, issue 38): vit_forward ported from
Giacomo98DaRe/Visual-Transformer-for-Facial-Expression-Recognition,
Model/models/VisualTransformers/Vit/pure_models/vit_encoder.py (`x = self.encoder(x); x =
x.mean(dim=1); x = self.heads(x)`; torchvision's Encoder ends with its LayerNorm, kept as the final
layer_norm); one concept answer changed by hand.

Mistakes:
1. vit_forward takes the mean over all tokens (after the final norm) instead of the [CLS] row
   into the head: wrong logits on every image.
2. `ANSWERS["causal_mask"] = "speed"`. The right option is "bidirectional".

Grader: at blind time (b53db91d) and now, both named: M1 on vit-forward ("You averaged every token.
This model's head reads the [CLS] row only: x[0] after the final LayerNorm."), M2 on no-causal-mask
("A mask saves no compute: the T x T scores are computed either way, then masked. ...");
vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_mean_pool_all_tokens',
          'no-causal-mask': 'causal_mask:speed'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]


ANSWERS["causal_mask"] = "speed"
