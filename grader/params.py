"""A ViT's sizes (`ViTSizes`), its parameter layout (`param_shapes`) and seeded random parameters
(`init_params`): what building a case's inputs needs, and no step of the forward pass.

It lives outside `grader/reference/` because the student bundle, which ships no reference (the
reference is the lab's solution), still builds `{vit_params: ...}` inputs and generated cases.
The reference's `ViTConfig` is a `ViTSizes` with the counts of the student API added.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

POOLS = ("cls", "mean")
DTYPES = ("float32", "float64")
ACTIVATION_NAMES = ("gelu", "gelu_tanh", "quick_gelu")  # the reference's layers.ACTIVATIONS keys
HEAD_ACTIVATION_NAMES = ("none", "tanh")  # the reference's config.HEAD_ACTIVATIONS keys

BIAS_STD = 0.5     # biases and LayerNorm betas: clearly non-zero, so a forgotten bias shows
GAIN_STD = 0.25    # LayerNorm gammas are 1 + GAIN_STD * noise, so a gamma of ones is wrong
EMBED_STD = 1.0    # [CLS] and positions: as large as the patch embeddings they join


@dataclass(frozen=True)
class ViTSizes:
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
    activation: str = "gelu"   # key of the reference's layers.ACTIVATIONS
    pre_norm: bool = False     # a LayerNorm on the tokens entering the first block (CLIP)
    norm_pooled: bool = False  # the final LayerNorm acts on the pooled vector, not on every token
    head_activation: str = "none"  # key of the reference's HEAD_ACTIVATIONS

    def __post_init__(self):
        for name in ("image_size", "patch_size", "channels", "dim", "depth", "heads", "mlp_dim"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ViTConfig.{name} must be positive, got {getattr(self, name)}")
        if self.image_size % self.patch_size:
            raise ValueError(f"patch size {self.patch_size} does not tile the "
                             f"{self.image_size}-pixel image")
        if self.num_classes < 0:
            raise ValueError(f"ViTConfig.num_classes must be 0 (no head) or more, "
                             f"got {self.num_classes}")
        if self.dim % self.heads:
            raise ValueError(f"dim {self.dim} does not split into {self.heads} heads: "
                             f"{self.dim} % {self.heads} = {self.dim % self.heads}")
        for name, allowed in (("pool", POOLS), ("dtype", DTYPES), ("activation", ACTIVATION_NAMES),
                              ("head_activation", HEAD_ACTIVATION_NAMES)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"ViTConfig.{name} must be one of {sorted(allowed)}, "
                                 f"got {getattr(self, name)!r}")


def param_shapes(config):  # -> the params layout, with shapes instead of arrays
    """Shape of every array parameter: one source of truth for init_params and check_params.
    `config`: a ViTSizes (or the reference's ViTConfig)."""
    d, m = config.dim, config.mlp_dim
    T = (config.image_size // config.patch_size) ** 2 + 1  # the patches and [CLS]
    block = {"Wq": (d, d), "bq": (d,), "Wk": (d, d), "bk": (d,), "Wv": (d, d), "bv": (d,),
             "Wo": (d, d), "bo": (d,), "ln1_g": (d,), "ln1_b": (d,), "ln2_g": (d,), "ln2_b": (d,),
             "W1": (d, m), "b1": (m,), "W2": (m, d), "b2": (d,)}
    flat = config.patch_size * config.patch_size * config.channels  # one flattened patch
    shapes = {"W_e": (flat, d), "b_e": (d,), "cls": (d,), "pos": (T, d)}
    if config.pre_norm:
        shapes.update(ln_pre_g=(d,), ln_pre_b=(d,))
    shapes.update(blocks=[block] * config.depth, ln_g=(d,), ln_b=(d,))
    if config.num_classes:
        shapes.update(W_head=(d, config.num_classes), b_head=(config.num_classes,))
    return shapes


def init_params(config, seed=0):  # -> params dict in the student API layout
    """Random parameters, the same for the same seed: matrices ~ N(0, 1/fan_in), the rest O(1)."""
    rng = np.random.default_rng(seed)
    shapes = param_shapes(config)
    params = {name: draw(rng, name, shape) for name, shape in shapes.items() if name != "blocks"}
    params["blocks"] = [{name: draw(rng, name, shape) for name, shape in block.items()}
                        for block in shapes["blocks"]]
    params.update(P=config.patch_size, heads=config.heads)
    return cast_params(params, config.dtype)


def draw(rng, name, shape):  # -> float64 array
    """One parameter's random values, by its kind (read from its name)."""
    if name.startswith("W"):  # weight matrix [fan_in, fan_out]
        return rng.normal(0.0, 1.0 / np.sqrt(shape[0]), shape)
    if name.endswith("_g"):  # LayerNorm gain
        return 1.0 + GAIN_STD * rng.standard_normal(shape)
    if name in ("cls", "pos"):
        return EMBED_STD * rng.standard_normal(shape)
    return BIAS_STD * rng.standard_normal(shape)  # biases and LayerNorm betas


def cast_params(params, dtype):  # -> a new params dict, arrays as `dtype`, P and heads kept
    """Every array of params as `dtype`; the integers P and heads untouched."""
    out = {k: v if k in ("P", "heads") else np.asarray(v, dtype) for k, v in params.items()
           if k != "blocks"}
    out["blocks"] = [{k: np.asarray(v, dtype) for k, v in block.items()}
                     for block in params["blocks"]]
    return out
