"""Blind round 52 (b52_09, issue 38): encoder_block after a common pre-norm transformer block
written `x = norm(x); x = x + sublayer(x)`; patch_dim from the timm/torch `in_chans` convention,
with the default of 1 of gray MNIST ViT code.

Mistakes:
1. encoder_block overwrites x with `layer_norm(x)` before each residual, so each residual adds
   to the normalised x, not the raw one. Always differs; vit_forward inherits it.
2. `patch_dim(P, C=1)`: the default C is 1, not 3. patch_dim(16) returns 256 (ref 768); with C
   passed the count is right.

Grader: at blind time (db53909c) and now, both named: M1 on encoder-block ("One slip, made at 2
places: (1) In `encoder_block`, the residual of `x + self_attention(layer_norm(x, p['ln1_g'],
p['ln1_b'], eps), p, h...` adds back `layer_norm(x, p['ln1_g'], p['ln1_b'], eps)`, the step's
output, instead of `x` itself. (2) In `encoder_block`, the residual of `x + mlp(layer_norm(x,
p['ln2_g'], p['ln2_b'], eps), p, activation)` adds back `layer_norm(x, p['ln2_g'], p['ln2_b'],
eps)`, the step's output, instead of `x` itself."), M2 on flatten-length ("In `patch_dim`, `C`
defaults to 1 instead of 3: right whenever `C` is given, wrong where it is left out.");
vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'
                           '+op:residual:encoder_block:residual-from-layer_norm.2'}


def patch_dim(P, C=1):
    """Numbers in one flattened patch: patch_size * patch_size * in_chans."""
    return P * P * C


def encoder_block(x, p, heads):
    """Pre-norm encoder block: attention sublayer, then MLP sublayer."""
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x
