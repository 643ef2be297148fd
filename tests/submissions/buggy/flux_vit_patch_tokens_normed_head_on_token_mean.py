"""Blind round 40 (b40_04, issue 38): embed_image and vit_forward ported from
JoshuaBillson/VisionTransformers.jl src/models/vit.jl (Julia/Flux: Conv |> img2seq, a fresh
LayerNorm(dim), Tokens, PositionEmbedding; the head on `seconddimmean`, class_token=false). The
student's helper `seconddimmean` is nested in vit_forward.

Mistakes:
1. embed_image: a parameter-free LayerNorm (scale 1, bias 0, eps 1e-5) of the patch tokens before
   [CLS] is prepended and the positions added.
2. vit_forward: the head reads the mean over all the tokens, then the final LayerNorm and W_head,
   instead of the [CLS] row.

Grader: at blind time (b589706) and now, named: "each row of `linear_patch_embed(...)` is
standardised, (x - mean) / sqrt(var + eps), as soon as it is computed" on the worked example, RGB
and hidden cls-and-positions checks; at blind time "`layer_norm(x, params['ln_g'], params['ln_b'])`
comes after a pooling: `x[0]` is read as `x.mean(axis=0)`" (now: "In `vit_forward` (in your
`seconddimmean`, which it calls: line ..., `return np.mean(x, axis=0)`), the model solution's
`x[0]` is read as `x.mean(axis=0)`: every row averaged ... and that order is no part of the mistake
...") on vit-forward (graded with the grader's embed_image); vit-checkpoint observes both. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:standardised_bound:embed_image:standardised-linear_patch_embed',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    # Conv(patchsize, inchannels=>dim, stride=patchsize) |> img2seq
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    dim = x.shape[-1]
    # Flux.LayerNorm(dim): a fresh one has scale 1, bias 0, eps 1f-5
    x = layer_norm(x, np.ones(dim), np.zeros(dim), eps=1e-5)
    # Tokens(dim, 1): the class token goes first
    x = np.concatenate([params["cls"][None, :], x], axis=0)
    # PositionEmbedding
    return x + params["pos"]


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    def seconddimmean(x):
        # Julia arrays are (dim, tokens, batch): the mean over dims=2 is the mean over tokens;
        # here tokens are rows
        return np.mean(x, axis=0)

    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = seconddimmean(x)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
