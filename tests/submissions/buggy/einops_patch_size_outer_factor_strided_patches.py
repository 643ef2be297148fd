"""Blind round 39 (b39_13, issue 38): patchify and embed_image ported from a PyTorch ViT
embeddings module (code-search file id 29689397705: PatchEmbeddings with an einops Rearrange +
nn.Linear, CLSToken, PositionalEmbeddings). embed_image is right, in the module's style
(CORRECT).

Mistakes:
1. patchify: Rearrange('b c (h_len h) (w_len w) -> b (h w) (h_len w_len c)', h_len=P, w_len=P)
   puts the patch size as the OUTER factor, so "patch" (i, j) gathers the pixels spaced H/P
   apart, not a contiguous P x P tile. Wrong on every image (square, non-square, gray).

Grader: at blind time (b589706) and now, named: at blind time "`image.reshape(H // P, P, W // P, P,
C)` splits `H` and `W` into blocks the other way round, as (P, H // P) instead of (H // P, P)
(einops' `(p1 h)` for `(h p1)`)" (now: "In `patchify`, the model solution's `image.reshape(H // P,
P, W // P, P, C)` splits `H` and `W` into blocks the other way round, as (P, H // P) instead of (H
// P, P), as some code does (einops' `(p1 h)` for `(h p1)`) ...") on patchify's worked example,
RGB, grayscale and hidden checks; the exercises using patchify are graded with the grader's
patchify; vit-checkpoint observes the broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:blocks:patchify:H-W-split-swapped'}
CORRECT = ('embed_image',)  # the module's CLSToken + PositionalEmbeddings: the lecture's formula


def patchify(image, P):
    """Rearrange('b c (h_len h) (w_len w) -> b (h w) (h_len w_len c)', h_len=P, w_len=P)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    patch_height, patch_width = P, P
    h, w = H // patch_height, W // patch_width
    x = image.reshape(patch_height, h, patch_width, w, C)     # (h_len h) (w_len w) c
    x = x.transpose(1, 3, 0, 2, 4)                             # h w h_len w_len c
    return x.reshape(h * w, patch_height * patch_width * C)


def embed_image(image, params):
    """PatchEmbeddings -> CLSToken (prepend) -> PositionalEmbeddings (x + self.pos)."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"].reshape(1, -1)
    x = np.concatenate((cls_tokens, x), axis=0)
    return x + params["pos"]
