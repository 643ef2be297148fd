"""The sizes and choices of a ViT, checked once (`ViTConfig`): what `init_params`, the batched
`ViT` and the checkpoint layouts share.

The fields and their checks are `grader.params.ViTSizes` (which the student bundle has, without
the reference); `ViTConfig` adds the counts of the student API and the reference's own messages
for sizes that do not tile.

Besides the student API's model, it describes what pretrained checkpoints do differently: CLIP's
LayerNorm before the first block (`pre_norm`), a final LayerNorm on the pooled vector rather than
on every token (`norm_pooled`: CLIP's post_layernorm, timm's fc_norm), quick GELU, each library's
LayerNorm eps, no classifier (`num_classes=0`) and Hugging Face's tanh pooler (`head_activation`).
"""
from dataclasses import dataclass

import numpy as np

from grader.params import ViTSizes

from .counting import num_patches

HEAD_ACTIVATIONS = {"none": None, "tanh": np.tanh}  # after the head: HF ViTModel's pooler is tanh

__all__ = ["HEAD_ACTIVATIONS", "ViTConfig"]


@dataclass(frozen=True)
class ViTConfig(ViTSizes):
    """Sizes and choices of a ViT; invalid combinations raise ValueError at construction."""

    def __post_init__(self):
        num_patches(self.image_size, self.image_size, self.patch_size)  # raises unless tiling
        super().__post_init__()

    @property
    def num_patches(self):  # N
        return num_patches(self.image_size, self.image_size, self.patch_size)

    @property
    def num_tokens(self):  # T = N + 1, [CLS] included
        return self.num_patches + 1
