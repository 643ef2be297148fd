"""Blind round 76 (b76_15, issue 38): embed_image ported from BVlad917/ViT `class_token.py`
(with vit.py, patch_embeddings.py and positional_encoding.py).

Mistakes:
1. embed_image via `class_token` (line 83 of the file as delivered):
   `np.concatenate([x, cls])` appends [CLS] as the last row, as the source's
   `torch.cat([x, class_tokens], dim=1)` does: position 0 gets patch 0, and vit_forward's row 0
   is a patch. Wrong on every image.
The delivered file's top-level helpers `class_token` and `positional_encoding` are nested in
embed_image here.

Grader: at blind time (fe8b70f1) and now, 98/110. Named on cls-and-positions ("You appended
[CLS] as the last row. The course prepends it ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended'}


def embed_image(image, params):
    def class_token(x, cls):
        """
        Learnable class token used for classifying an input image. Used in the ViT paper and inspired from the BERT
        paper.
        """
        return np.concatenate([x, cls[np.newaxis, :]], axis=0)

    def positional_encoding(x, pos):
        """
        Learnable positional encoding from the ViT paper. One learnable positional
        encoding for each patch + one for the classification token.
        """
        return x + pos

    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = class_token(x, params["cls"])
    return positional_encoding(x, params["pos"])
