"""Blind round 32 (b32_13, issue 38): JingyunLiang/SwinIR, models/network_swinir.py
(window_partition, nested in patchify, each window flattened, right: CORRECT; PatchEmbed with
patch_norm=True as linear_patch_embed).

Mistakes:
1. linear_patch_embed applies PatchEmbed's norm (nn.LayerNorm(embed_dim): weight 1, bias 0,
   eps 1e-5) to the projected tokens: every token is standardised instead of returning
   patchify @ W_e + b_e.

Grader: at blind time (a78aae9) and now, named on the RGB and hidden checks of
linear-patch-embed: "each row of `linear(patchify(image, P), W_e, b_e)` is standardised,
(x - mean) / sqrt(var + eps), before it is returned"; the worked example gets the checklist.
kernel-stride's equivalence property calls the student's linear_patch_embed (an observation
pointing at it); vit-checkpoint observes it too. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:standardised_after:linear_patch_embed:standardised-after-linear'}
CORRECT = ('patchify',)  # SwinIR's window_partition, right


def patchify(image, P):
    """window_partition(x, window_size) on one image, each window flattened."""

    def window_partition(x, window_size):
        B, H, W, C = x.shape
        x = x.reshape(B, H // window_size, window_size, W // window_size, window_size, C)
        windows = x.transpose(0, 1, 3, 2, 4, 5).reshape(-1, window_size, window_size, C)
        return windows

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # ValueError when the windows do not tile
    windows = window_partition(image[None], P)  # nW, window_size, window_size, C
    return windows.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens: the projection, then PatchEmbed's norm (nn.LayerNorm(embed_dim), patch_norm=True)."""
    x = patchify(image, P) @ W_e + b_e  # B Ph*Pw C
    embed_dim = x.shape[-1]
    x = layer_norm(x, np.ones(embed_dim), np.zeros(embed_dim), eps=1e-5)  # if self.norm is not None
    return x
