"""Blind round 19 (b19_04, issue 38): layer_norm and num_tokens ported from Meta's segment-anything
image encoder (common.py's `LayerNorm2d`, the encoder without [CLS]).

Mistakes:
1. layer_norm is LayerNorm2d's, mean and variance over axis 1 (an NCHW map's channels):
   `u = x.mean(1, keepdims=True)`, `s = ((x - u) ** 2).mean(1, keepdims=True)`. Right for (T, d)
   tokens, wrong for batched (B, T, d) input (normalised over the tokens); a 1-D token raises.
2. num_tokens defaults to `cls_token=False` (SAM's encoder has no [CLS]); the default is True.

Grader: at blind time and now, both named: the axis as one slip at 2 places (mean and var over
axis 1) and the flipped default; attention-cost (which calls num_tokens) gets its checklist. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def num_tokens(H, W, P, cls_token=False):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def layer_norm(x, gamma, beta, eps=1e-6):
    # LayerNorm2d.forward
    u = x.mean(1, keepdims=True)
    s = ((x - u) ** 2).mean(1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    x = gamma * x + beta
    return x
