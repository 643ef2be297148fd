"""The sizes and choices of a ViT, checked once (`ViTConfig`): what `init_params`, the batched
`ViT` and the checkpoint layouts share.

Besides the student API's model, it describes what pretrained checkpoints do differently: CLIP's
LayerNorm before the first block (`pre_norm`), a final LayerNorm on the pooled vector rather than
on every token (`norm_pooled`: CLIP's post_layernorm, timm's fc_norm), quick GELU, each library's
LayerNorm eps, no classifier (`num_classes=0`) and Hugging Face's tanh pooler (`head_activation`).
"""
from dataclasses import dataclass

import numpy as np

from .counting import num_patches, patch_dim
from .layers import ACTIVATIONS

POOLS = ("cls", "mean")
DTYPES = ("float32", "float64")
HEAD_ACTIVATIONS = {"none": None, "tanh": np.tanh}  # after the head: HF ViTModel's pooler is tanh


@dataclass(frozen=True)
class ViTConfig:
    """Sizes and choices of a ViT; invalid combinations raise ValueError at construction."""
    image_size: int = 32
    patch_size: int = 8
    channels: int = 3
    dim: int = 64
    depth: int = 2
    heads: int = 4
    mlp_dim: int = 128
    num_classes: int = 10      # 0: no head, the model returns the pooled features [B, dim]
    pool: str = "cls"          # "cls": the [CLS] row; "mean": mean of the patch tokens
    eps: float = 1e-6          # LayerNorm epsilon, every LayerNorm
    dtype: str = "float32"     # parameters, activations and logits
    activation: str = "gelu"   # key of layers.ACTIVATIONS
    pre_norm: bool = False     # a LayerNorm on the tokens entering the first block (CLIP)
    norm_pooled: bool = False  # the final LayerNorm acts on the pooled vector, not on every token
    head_activation: str = "none"  # key of HEAD_ACTIVATIONS, applied to the head's output

    def __post_init__(self):
        num_patches(self.image_size, self.image_size, self.patch_size)  # raises unless tiling
        for name in ("channels", "dim", "depth", "heads", "mlp_dim"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ViTConfig.{name} must be positive, got {getattr(self, name)}")
        if self.num_classes < 0:
            raise ValueError(f"ViTConfig.num_classes must be 0 (no head) or more, "
                             f"got {self.num_classes}")
        if self.dim % self.heads:
            raise ValueError(f"dim {self.dim} does not split into {self.heads} heads: "
                             f"{self.dim} % {self.heads} = {self.dim % self.heads}")
        for name, allowed in (("pool", POOLS), ("dtype", DTYPES), ("activation", ACTIVATIONS),
                              ("head_activation", HEAD_ACTIVATIONS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"ViTConfig.{name} must be one of {sorted(allowed)}, "
                                 f"got {getattr(self, name)!r}")

    @property
    def num_patches(self):  # N
        return num_patches(self.image_size, self.image_size, self.patch_size)

    @property
    def num_tokens(self):  # T = N + 1, [CLS] included
        return self.num_patches + 1

    @property
    def patch_dim(self):  # P*P*C
        return patch_dim(self.patch_size, self.channels)
