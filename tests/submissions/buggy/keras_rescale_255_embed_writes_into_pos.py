"""Blind round 7 (b7_07, issue 38): linear_patch_embed with the Keras examples' Rescaling(1/255)
inside it, and embed_image that builds the sequence inside params['pos'].

Mistakes:
1. linear_patch_embed: divides the pixels by 255 before the projection (Keras examples'
   `layers.Rescaling(1.0 / 255)` preprocessing moved into the embedding). Shows always (any
   nonzero image).
2. embed_image: uses params["pos"] itself as the output buffer and adds [CLS] and the patch
   tokens into it in place (`encoded = params["pos"]; encoded[0] += cls; encoded[1:] +=
   patches`), so the caller's position table is overwritten. The first call returns the right
   tokens; a second call with the same params returns wrong ones (and the returned array aliases
   pos).

Grader: both were only observed at first (the rescale is named since). The rescale: "returns the expected values times 0.003922,
everywhere: one scale factor is off" (scaled) on the worked example, no hint on the
RGB-with-bias and hidden checks; kernel-stride's property checklist points at
linear_patch_embed's flatten order and + b_e, both right. The in-place write: "the value is
right, but `embed_image` changed `params['pos']` in place" with the in-place observation, which
carried no misconception name until session 13.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:rescaled:linear_patch_embed:image-over-255',
          'cls-and-positions': 'changes_input_in_place'}


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P)
    patches = np.asarray(patches, dtype=float) / 255.0        # Rescaling(1./255)
    return patches @ W_e + b_e                                # Dense(projection_dim)


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    encoded = params["pos"]                  # position_embedding(positions), (N + 1, d)
    encoded[0] += params["cls"]
    encoded[1:] += patches
    return encoded
