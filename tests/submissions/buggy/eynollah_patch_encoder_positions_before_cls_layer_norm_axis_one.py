"""Blind round 74 (b74_08, issue 38): embed_image and layer_norm ported from
qurator-spk/eynollah `src/eynollah/patch_encoder.py` (the Keras PatchEncoder:
projection(patch) + position_embedding(range(num_patches))).

Mistakes:
1. embed_image (line 76 of the file as delivered): the positions `pos[0:N]` added to the N
   patch tokens before [CLS] is prepended, so [CLS] gets no position and each patch the
   position of the row before it. Wrong on every image.
2. layer_norm (lines 88-89): mean and variance over axis 1 instead of the last axis. The same
   on 2-D (T, d) input; wrong on batched 3-D input such as (2, 3, 6).

Grader: at blind time (997839b5) and now, 96/110. Mistake 1 named on cls-and-positions ("`x +
params['pos']` is added before ... `np.vstack([params['cls'], x])` ... each row of `x` gets the
one meant for the row before it"); mistake 2 on layer-norm ("`np.mean(x, keepdims=True,
axis=1)` ... instead of over axis -1", the variance too); vit-checkpoint observes embed_image.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def embed_image(image, params):
    encoded = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num = encoded.shape[0]
    positions = np.arange(0, num, 1)
    encoded = encoded + params["pos"][positions]
    return np.concatenate([params["cls"][np.newaxis, :], encoded], axis=0)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
