"""Blind round 50 (b50_12, issue 38): conv_equivalent and vit_forward ported from a Julia/Flux
ViT (`ViT(dim, nheads, depth; patchsize=(16,16), ...)`: the patch embedding
`Flux.Conv(patchsize, inchannels=>dim, stride=patchsize)` with `patchsize=(P, P)`, and the head
`Chain(seconddimmean, LayerNorm, Dense)`).

Mistakes:
1. conv_equivalent returns `((P, P), (P, P))`, a pair of tuples, not two integers `(P, P)`.
2. vit_forward mean-pools all tokens ([CLS] included) before the final layer_norm and the head,
   instead of taking the [CLS] row: wrong logits on every image.

Grader: at blind time (593126bb) and now, M1 named on kernel-stride: "In `conv_equivalent`, each
number of the result `(P, P)` is written as a (height, width) pair, `((P, P), (P, P))`, as Keras'
`kernel_size=(P, P), strides=(P, P)` and PyTorch's `_pair` take them: ..."; M2 named on
vit-forward: "In `vit_forward`, `layer_norm(x, params['ln_g'], params['ln_b'])` comes after a
pooling: `x[0]` is read as `x.mean(axis=0)`, every row averaged (average pooling of all the
tokens), and that one row goes through the step, instead of every row before row 0 is read."
(at blind time; now: "In `vit_forward` (in your `seconddimmean`, which it calls: line ...,
`return np.mean(x, axis=0)`), the model solution's `x[0]` is read as `x.mean(axis=0)`: every row
averaged ... and that order is no part of the mistake ...");
vit-checkpoint observes vit_forward. Every mistake named, so in buggy/. The student's seconddimmean (top-level
in the file) is nested in vit_forward here: the builder replaces only the solution's own
definitions.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:sizes_as_pairs:conv_equivalent:each-as-a-pair',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def conv_equivalent(P):
    patchsize = (P, P)
    # Flux.Conv(patchsize, inchannels => dim, stride = patchsize)
    return patchsize, patchsize


def vit_forward(image, params):
    def seconddimmean(x):
        return np.mean(x, axis=0)

    # Encoder
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # Classification Head
    x = seconddimmean(x)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
