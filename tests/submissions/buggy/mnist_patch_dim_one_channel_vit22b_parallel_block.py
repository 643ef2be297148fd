"""Blind round 51 (b51_05, issue 38): patch_dim after the one-channel MNIST `patchify`
(`x.reshape(shape=(h * w, p**2))`); encoder_block ported from gitE0Z9/pytorch-implementations,
torchlake/image_classification/models/vit/network.py, ViT22BLayer.forward (`y = self.norm(x);
att = self.attention(...y...); y = F.gelu(self.linear(y)); y = att + y; return x + y`).

Mistakes:
1. `patch_dim(P, C=1)`: the default C is 1, not 3. patch_dim(16) returns 256 (ref 768); with C
   passed the count is right.
2. encoder_block is the parallel ViT-22B block: one LayerNorm (ln1) feeds both the attention and
   the MLP, both added to the same x, `x + attn(LN1(x)) + mlp(LN1(x))`; the API's block is
   sequential, the MLP reading `LN2(x + attn(LN1(x)))`, and ln2_g/ln2_b are never used here.
   vit_forward inherits it.

Grader: at blind time (b53db91d) and now, both named: M1 on flatten-length ("In `patch_dim`, `C`
defaults to 1 instead of 3: right whenever `C` is given, wrong where it is left out."), M2 on
encoder-block ("2 mistakes at once: (1) In `encoder_block`, `layer_norm(x, p['ln2_g'], p['ln2_b'],
eps)` is given `x` as it was before `x = x + self_attention(layer_norm(x, p['ln1_g'], p['ln1_b'],
eps), ...`: that statement's result is left out there. (2) In `encoder_block`, `layer_norm(x,
p['ln2_g'], p['ln2_b'], eps)` is given p['ln1_g'], p['ln1_b']: the parameters of the step before
it, ..."); vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2'
                          '+op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def patch_dim(P, C=1):
    return P ** 2 * C


def encoder_block(x, p, heads):
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    att = self_attention(y, p, heads)
    y = gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    y = att + y
    return x + y
