"""Blind round 56 (b56_05, issue 38): layer_norm ported from PaddlePaddle's `group_norm_naive`
test helper, id 657370719 (`x = x.reshape((N * G, -1)); mean = np.mean(x, axis=1,
keepdims=True)`), as layer norm = group norm with G = 1; vit_forward from rezaarezvan/MVEX11
`bayeslens/models/bayeslens_vit.py` (`x = self.vit(x); x = self.softmax(x)`).

Mistakes:
9. `layer_norm` reshapes to `(x.shape[0], -1)` and normalises over everything but the first
   axis. Right for 2-D `(T, d)`; on batched `(B, T, d)` input it normalises over all T*d
   numbers of a sequence (wrong values), and on a 1-D token `(d,)` it normalises every number on
   its own and returns `beta` (`[1, 2, 3]` -> `[0, 0, 0]`). The ViT itself only passes 2-D
   arrays, so `vit_forward` is not affected by it.
10. `vit_forward` returns `softmax(logits)` (probabilities summing to 1) instead of the logits:
    on every input, e.g. `[0.998, 0.0014, 0.0002]` where the logits are `[4.42, -2.13, -4.09]`.

Grader: at blind time (ba2d1546) both named: layer-norm's hidden check ("In `layer_norm`, the
mean and variance are taken over every axis but the first, `axis=tuple(range(1, np.ndim(x)))`
(`F.layer_norm(x, x.shape[1:])`), instead of over the last one: right for a (T, d) sequence, but
a batch is normalised per sample instead of per token."), vit-forward's two checks ("In
`vit_forward`, the result goes through a softmax over its last axis (a head built with
activation='softmax') before it is returned: ..."). But vit-checkpoint's observation also
blamed `layer_norm` ("Your `layer_norm` loses points in its own exercise (layer-norm): where
this run uses it (the model solution's pipeline does; your code may not), fix it there first, as
its mistake may be what fails here."), a wrong hint: the pipeline passes it only 2-D (T, d)
arrays, where it equals the reference exactly.
Now named (both as at blind time), and vit-checkpoint's observation says `vit_forward` alone:
"This check runs your functions end to end. Your `vit_forward` loses points in its own exercise
(vit-forward): fix it there first, as its mistake may be what fails here." (`layer_norm` answered
correctly changes none of the logits: not said). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Layer norm written as group norm with a single group (G = 1)."""
    x = np.asarray(x, dtype=float)
    orig_shape = x.shape
    N = orig_shape[0]
    x = x.reshape((N, -1))
    mean = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    output = (x - mean) / np.sqrt(var + eps)
    output = output.reshape(orig_shape) * gamma + beta
    return output


def vit_forward(image, params):
    """Forward pass of the classifier: embeddings, blocks, final norm, [CLS] head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0] @ params["W_head"] + params["b_head"]
    x = softmax(x)
    return x
