"""Blind round 74 (b74_03, issue 38): patchify and embed_image ported from
Ugenteraan/Vision-Transformer `ViT/patch_embedding.py`.

Mistakes:
1. patchify (get_non_overlapping_patches and unfold, lines 56 and 42 of the file as delivered):
   the image is turned channels first and unfolded like nn.Unfold, so each patch is flattened
   (c, p1, p2) instead of (p1, p2, c). Wrong only with C > 1 (gray images are right).
2. embed_image (cls_token_concat, line 97): [CLS] appended as the last row (the source's
   "appends ... at the end"), then the positions added, so row 0 is a patch. Wrong on every
   image.
The delivered file's top-level helpers unfold, get_non_overlapping_patches and cls_token_concat
are nested in patchify and embed_image here.

Grader: at blind time (997839b5) and now, 93/110. Mistake 1 named on patchify ("You flattened
each patch channel first, (c, p1, p2) ... (p1, p2, c)"); mistake 2 on cls-and-positions ("You
appended [CLS] as the last row. The course prepends it"); vit-checkpoint observes embed_image.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'cls-and-positions': 'embed_cls_appended'}


def patchify(image, P):
    def unfold(inp, kernel_size, stride):
        '''Mimics nn.Unfold on a single [channel, height, width] array.
        Returns an array of shape [a single flattened image patch dimension, total number of patches].
        '''
        C, H, W = inp.shape
        columns = []
        for i in range(0, H - kernel_size + 1, stride):
            for j in range(0, W - kernel_size + 1, stride):
                columns.append(inp[:, i:i + kernel_size, j:j + kernel_size].reshape(-1))
        return np.stack(columns, axis=1)

    def get_non_overlapping_patches(image, P):
        '''Break the image to N non-overlapping patches.
        '''
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("Image must be of shape (H, W) or (H, W, C).")
        H, W, C = image.shape
        num_patches(H, W, P)
        inp = image.transpose(2, 0, 1)  # [image channel, image height, image width]
        patched_image_tensors = unfold(inp, kernel_size=P, stride=P)
        # to keep things consistent with the paper, we permute the dimensions to [total number of patches, a single flattened image patch dimension].
        return patched_image_tensors.transpose(1, 0)

    return get_non_overlapping_patches(image, P)


def embed_image(image, params):
    def cls_token_concat(linear_projected_tensors, cls_token):
        '''Receives the image patches that has been linearly projected and appends a learnable parameter tensor at the end of the input tensor.
        '''
        return np.concatenate([linear_projected_tensors, cls_token[None, :]], axis=0)

    linear_projected_tensors = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token_concat_tensors = cls_token_concat(linear_projected_tensors, params["cls"])
    patch_embeddings = cls_token_concat_tensors + params["pos"]
    return patch_embeddings
