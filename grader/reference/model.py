"""The batched reference ViT: a config, random parameters, and a model over [B, H, W, C] batches.

Parameters use the student API's layout (keys P, W_e, b_e, cls, pos, heads, blocks, ln_g, ln_b,
W_head, b_head), so one params dict feeds both `vit_forward` and `ViT`. The model runs the same
functions as the student API on a batch axis: no loop over images, tokens or heads.

The config also describes what pretrained checkpoints do differently (`ViT.from_pretrained`,
grader/reference/checkpoints.py): CLIP's LayerNorm before the first block (`pre_norm`, params
ln_pre_g, ln_pre_b), a final LayerNorm on the pooled vector rather than on every token
(`norm_pooled`: CLIP's post_layernorm, timm's fc_norm), quick GELU, each library's LayerNorm eps,
no classifier at all (`num_classes=0`: the model returns the pooled features) and Hugging Face's
tanh pooler (`head_activation="tanh"`).
"""
from dataclasses import dataclass

import numpy as np

from .counting import num_patches, patch_dim
from .encoder import encoder_block
from .layers import ACTIVATIONS, layer_norm, linear
from .patches import embed_patches, patchify_batch

POOLS = ("cls", "mean")
DTYPES = ("float32", "float64")
HEAD_ACTIVATIONS = {"none": None, "tanh": np.tanh}  # after the head: HF ViTModel's pooler is tanh
BIAS_STD = 0.5     # biases and LayerNorm betas: clearly non-zero, so a forgotten bias shows
GAIN_STD = 0.25    # LayerNorm gammas are 1 + GAIN_STD * noise, so a gamma of ones is wrong
EMBED_STD = 1.0    # [CLS] and positions: as large as the patch embeddings they join


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
            raise ValueError(f"ViTConfig.num_classes must be 0 (no head) or more, got {self.num_classes}")
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


def param_shapes(config):  # -> the params layout, with shapes instead of arrays
    """Shape of every array parameter: one source of truth for init_params and check_params."""
    d, m, T = config.dim, config.mlp_dim, config.num_tokens
    block = {"Wq": (d, d), "bq": (d,), "Wk": (d, d), "bk": (d,), "Wv": (d, d), "bv": (d,),
             "Wo": (d, d), "bo": (d,), "ln1_g": (d,), "ln1_b": (d,), "ln2_g": (d,), "ln2_b": (d,),
             "W1": (d, m), "b1": (m,), "W2": (m, d), "b2": (d,)}
    shapes = {"W_e": (config.patch_dim, d), "b_e": (d,), "cls": (d,), "pos": (T, d)}
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
    params = {name: _draw(rng, name, shape) for name, shape in shapes.items() if name != "blocks"}
    params["blocks"] = [{name: _draw(rng, name, shape) for name, shape in block.items()}
                        for block in shapes["blocks"]]
    params.update(P=config.patch_size, heads=config.heads)
    return cast_params(params, config.dtype)


def _draw(rng, name, shape):  # -> float64 array
    if name.startswith("W"):  # weight matrix [fan_in, fan_out]
        return rng.normal(0.0, 1.0 / np.sqrt(shape[0]), shape)
    if name.endswith("_g"):  # LayerNorm gain
        return 1.0 + GAIN_STD * rng.standard_normal(shape)
    if name in ("cls", "pos"):
        return EMBED_STD * rng.standard_normal(shape)
    return BIAS_STD * rng.standard_normal(shape)  # biases and LayerNorm betas


def cast_params(params, dtype):  # -> a new params dict, arrays as `dtype`, P and heads kept
    """Every array of params as `dtype`; the integers P and heads untouched."""
    out = {k: v if k in ("P", "heads", "blocks") else np.asarray(v, dtype) for k, v in params.items()}
    out["blocks"] = [{k: np.asarray(v, dtype) for k, v in block.items()} for block in params["blocks"]]
    return out


def check_params(config, params):
    """ValueError naming the first parameter whose shape (or P, heads, depth) the config rejects."""
    for key, want in (("P", config.patch_size), ("heads", config.heads)):
        if params.get(key) != want:
            raise ValueError(f"params[{key!r}] is {params.get(key)!r}, the config says {want}")
    shapes = param_shapes(config)
    depth = len(params.get("blocks", ()))
    if depth != config.depth:
        raise ValueError(f"params has {depth} blocks, the config says {config.depth}")
    expected = [((name,), shape) for name, shape in shapes.items() if name != "blocks"]
    expected += [(("blocks", i, name), shape) for i, block in enumerate(shapes["blocks"])
                 for name, shape in block.items()]
    for path, shape in expected:
        _check_shape(params, path, shape)


def _check_shape(params, path, shape):
    where = "params" + "".join(f"[{key!r}]" for key in path)
    value = params
    for key in path:
        try:
            value = value[key]
        except KeyError:
            raise ValueError(f"{where} is missing") from None
    if np.shape(value) != shape:
        raise ValueError(f"{where} has shape {np.shape(value)}, expected {shape}")


class ViT:
    """Batched numpy ViT: images [B, H, W, C] -> logits [B, num_classes].

    For pool="cls" each row equals vit_forward(image, params). The steps are methods (embed,
    encode, final_norm, pool, head) so that a checkpoint variant can replace one of them.
    `ViT.from_pretrained(folder)` loads a Hugging Face ViT or CLIP vision tower, or a timm ViT.
    """

    def __init__(self, config, params):
        check_params(config, params)
        self.config = config
        self.params = fuse_qkv(cast_params(params, config.dtype))
        self.activation = ACTIVATIONS[config.activation]

    @classmethod
    def from_pretrained(cls, path, *, dtype="float32"):
        """The model saved in the folder `path` (config.json + model.safetensors), local files only."""
        from .checkpoints import load_pretrained

        return load_pretrained(path, dtype=dtype)

    def __call__(self, images, *, return_hidden=False):  # [B, H, W, C] -> [B, num_classes]
        """Logits; with return_hidden=True, (logits, [x after block 1, ..., after block depth]).

        With num_classes=0 the output is the pooled, normalised features [B, dim] instead.
        """
        x = self.embed(images)  # [B, T, d]
        hidden = self.encode(x) if return_hidden else None  # depth x [B, T, d]
        if hidden is None:
            for x in self.blocks(x):  # keeps only the latest state, not all of them
                pass
        else:
            x = hidden[-1]
        logits = self.head(self.features(x))  # [B, num_classes]
        return (logits, hidden) if return_hidden else logits

    def embed(self, images):  # [B, H, W, C] -> [B, T, d]
        """Patchify, linear map, [CLS] as token 0, positions (then pre_norm's LayerNorm)."""
        images = self._check_images(images)
        p = self.params
        x = embed_patches(patchify_batch(images, p["P"]), p["W_e"], p["b_e"], p["cls"], p["pos"])
        return layer_norm(x, p["ln_pre_g"], p["ln_pre_b"], self.config.eps) if self.config.pre_norm else x

    def encode(self, x):  # [B, T, d] -> depth x [B, T, d]
        """The hidden states after each encoder block."""
        return list(self.blocks(x))

    def blocks(self, x):  # [B, T, d] -> yields depth x [B, T, d]
        """The encoder blocks one after the other, yielding each block's output."""
        for block in self.params["blocks"]:
            x = encoder_block(x, block, self.config.heads, eps=self.config.eps,
                              activation=self.activation)  # [B, T, d] -> [B, T, d]
            yield x

    def features(self, x):  # [B, T, d] -> [B, d]
        """Final LayerNorm and pooling, in the config's order (norm_pooled: pool first)."""
        return self.final_norm(self.pool(x)) if self.config.norm_pooled else self.pool(self.final_norm(x))

    def final_norm(self, x):  # [B, T, d] -> [B, T, d], or [B, d] -> [B, d]
        """The LayerNorm after the last block: on every token, or on the pooled vector."""
        return layer_norm(x, self.params["ln_g"], self.params["ln_b"], self.config.eps)

    def pool(self, x):  # [B, T, d] -> [B, d]
        """The [CLS] row, or the mean of the patch tokens ([CLS] left out)."""
        return x[:, 0] if self.config.pool == "cls" else x[:, 1:].mean(axis=1)

    def head(self, x):  # [B, d] -> [B, num_classes]
        """The linear classifier (then head_activation); the identity when num_classes is 0."""
        if not self.config.num_classes:
            return x
        out = linear(x, self.params["W_head"], self.params["b_head"])
        activation = HEAD_ACTIVATIONS[self.config.head_activation]
        return out if activation is None else activation(out)

    def _check_images(self, images):  # -> images as the config's dtype
        images = np.asarray(images, dtype=self.config.dtype)
        c = self.config
        want = (c.image_size, c.image_size, c.channels)
        if images.ndim != 4 or images.shape[1:] != want:
            raise ValueError(f"images must be (B, {', '.join(map(str, want))}), "
                             f"got shape {images.shape}")
        return images


def fuse_qkv(params):  # -> params whose blocks also hold Wqkv [d, 3d] and bqkv [3d]
    """One [d, 3d] matrix for q, k and v (one matrix product instead of three).

    Wq, Wk, Wv (and the biases) become views into the fused arrays, so the weights are held once.
    """
    blocks = []
    for block in params["blocks"]:
        block = dict(block)
        d = block["Wq"].shape[0]
        for fused, names in (("Wqkv", ("Wq", "Wk", "Wv")), ("bqkv", ("bq", "bk", "bv"))):
            block[fused] = np.concatenate([block[n] for n in names], axis=-1)
            for i, name in enumerate(names):
                block[name] = block[fused][..., i * d:(i + 1) * d]
        blocks.append(block)
    return {**params, "blocks": blocks}
