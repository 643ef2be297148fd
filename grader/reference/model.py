"""The batched model `ViT` over [B, H, W, C] images; random parameters come from grader/params.py.

Parameters use the student API's layout (keys P, W_e, b_e, cls, pos, heads, blocks, ln_g, ln_b,
W_head, b_head; CLIP's ln_pre_g, ln_pre_b), so one params dict feeds both `vit_forward` and
`ViT`. `ViT` runs fast.py's batched functions (no loop over images, tokens or heads) and reads
pretrained checkpoints with `ViT.from_pretrained` (checkpoints.py).
"""
import numpy as np

from grader.params import cast_params, init_params, param_shapes

from . import fast
from .config import HEAD_ACTIVATIONS

__all__ = ["ViT", "cast_params", "check_params", "init_params", "param_shapes"]


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
        where, value = "params" + "".join(f"[{key!r}]" for key in path), params
        for key in path:
            try:
                value = value[key]
            except KeyError:
                raise ValueError(f"{where} is missing") from None
        if np.shape(value) != shape:
            raise ValueError(f"{where} has shape {np.shape(value)}, expected {shape}")


class ViT:
    """Batched numpy ViT: images [B, H, W, C] -> logits [B, num_classes].

    For pool="cls" each row equals vit_forward(image, params). The steps are methods: embed,
    blocks, features (final LayerNorm and pooling), head.
    `ViT.from_pretrained(folder)` loads a Hugging Face ViT or CLIP vision tower, or a timm ViT.
    """

    def __init__(self, config, params):
        check_params(config, params)
        self.config = config
        self.params = fast.fuse_qkv(cast_params(params, config.dtype))
        self.activation = fast.ACTIVATIONS[config.activation]

    @classmethod
    def from_pretrained(cls, path, *, dtype="float32"):
        """The model saved in the folder `path` (config.json + model.safetensors), local files only.

        Its call returns logits, or embeddings for CLIP; `.layout` names the library's layout.
        """
        from .checkpoints import read_checkpoint

        config, params, layout = read_checkpoint(path, dtype)
        model = cls(config, params)
        model.layout = layout
        return model

    def __call__(self, images, *, return_hidden=False):  # [B, H, W, C] -> [B, num_classes]
        """Logits; with return_hidden=True, (logits, [x after block 1, ..., after block depth]).

        With num_classes=0 the output is the pooled, normalised features [B, dim] instead.
        """
        hidden = []  # the output of every block, kept only when asked for
        for x in self.blocks(self.embed(images)):  # [B, T, d]
            if return_hidden:
                hidden.append(x)
        logits = self.head(self.features(x))  # [B, num_classes]
        return (logits, hidden) if return_hidden else logits

    def embed(self, images):  # [B, H, W, C] -> [B, T, d]
        """Patchify, linear map, [CLS] as token 0, positions (then pre_norm's LayerNorm)."""
        p = self.params
        x = fast.embed(self._check_images(images), p)  # [B, T, d]
        if self.config.pre_norm:
            x = fast.layer_norm(x, p["ln_pre_g"], p["ln_pre_b"], self.config.eps)
        return x

    def blocks(self, x):  # [B, T, d] -> yields depth x [B, T, d]
        """The encoder blocks one after the other, yielding each block's output."""
        for block in self.params["blocks"]:
            x = fast.encoder_block(x, block, self.config.heads, self.config.eps,
                                   self.activation)  # [B, T, d] -> [B, T, d]
            yield x

    def features(self, x):  # [B, T, d] -> [B, d]
        """The final LayerNorm (on every token, or with norm_pooled on the pooled vector) and the
        pooling: the [CLS] row, or the mean of the patch tokens ([CLS] left out)."""
        c, p = self.config, self.params
        if not c.norm_pooled:
            x = fast.layer_norm(x, p["ln_g"], p["ln_b"], c.eps)  # [B, T, d]
        x = x[:, 0] if c.pool == "cls" else x[:, 1:].mean(axis=1)  # [B, d]
        return fast.layer_norm(x, p["ln_g"], p["ln_b"], c.eps) if c.norm_pooled else x

    def head(self, x):  # [B, d] -> [B, num_classes]
        """The linear classifier (then head_activation); the identity when num_classes is 0."""
        if not self.config.num_classes:
            return x
        out = fast.linear(x, self.params["W_head"], self.params["b_head"])
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
