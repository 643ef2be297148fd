"""Blind round 44 (b44_03, issue 38): linear_patch_embed ported from a Flax ExtractPatches /
MergePatches module (code-search file id 45134576034: two `jnp.reshape`s, no `swapaxes`);
conv_equivalent from a Flax DINOv2 PatchEmbed (code-search file id 26587736834:
`nn.Conv(kernel_size=(patch_H, patch_W), strides=(patch_H, patch_W))`).

Mistakes:
1. linear_patch_embed: its nested extract_patches reshapes (H/P, P, W/P, P, C) straight to
   (N, P*P*C) without swapping the P and W/P axes, so a "patch" is P consecutive full-width
   row strips, not a P x P tile (wrong whenever W/P > 1 and P > 1).
2. conv_equivalent: returns Flax-style tuples `((P, P), (P, P))` instead of the two integers
   (kernel_size, stride) = (P, P).

Grader: at blind time (0fc72e8) and now, both named: "Your tokens are those of
image.reshape(N, P*P*C): consecutive pixels of a row rather than P x P tiles ..." on
linear-patch-embed, and "In `conv_equivalent`, each number of the result `(P, P)` is written
as a (height, width) pair, `((P, P), (P, P))` ..." on kernel-stride (its equivalence check,
which calls the file's linear_patch_embed, observes it); vit-checkpoint observes
linear_patch_embed. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'linear-patch-embed': 'linear_embed_bare_reshape',
    'kernel-stride': 'op:sizes_as_pairs:conv_equivalent:each-as-a-pair',
}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): the flattened patches @ W_e + b_e."""

    def extract_patches(inputs, patch_size):
        height, width, channels = inputs.shape
        height, width = height // patch_size, width // patch_size
        x = np.reshape(inputs, (height, patch_size, width, patch_size, channels))
        x = np.reshape(x, (height * width, patch_size ** 2 * channels))
        return x

    image = _as_hwc(image)
    num_patches(image.shape[0], image.shape[1], P)  # ValueError when P does not tile
    return extract_patches(image, P) @ W_e + b_e

def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    patch_H, patch_W = P, P
    kernel_size = (patch_H, patch_W)
    strides = (patch_H, patch_W)
    return kernel_size, strides
