"""Pretrained checkpoints into the reference ViT, from local files only (nothing is downloaded).

A checkpoint is a folder with `config.json` and `model.safetensors`. `read_checkpoint(folder)`
tells its layout from config.json, reads the weights with the `safetensors` package's numpy API
(the optional extra `vit-grader[checkpoints]`) and maps them into a ViTConfig and params in the
student API's layout; `ViT.from_pretrained` builds the model. One module per layout knows its
names and semantics (checkpoint_format.py holds what they share):

    checkpoint_hf_vit.py   Hugging Face ViTModel / ViTForImageClassification  (model_type "vit")
    checkpoint_clip.py     Hugging Face CLIPVisionModel(WithProjection), CLIPModel's image tower
    checkpoint_timm.py     timm VisionTransformer as timm.models.save_for_hf writes it

Every semantic choice (LayerNorm eps, GELU flavour, pooling, which outputs are normalised) is
read from the files; a missing or unsupported one raises CheckpointError naming it.
"""
import json
from pathlib import Path

from .checkpoint_format import CONFIG_FILE, WEIGHTS_FILE, CheckpointError, patch_weight

INSTALL_HINT = 'pip install "vit-grader[checkpoints]"'
__all__ = ["CheckpointError", "detect_layout", "patch_weight", "read_checkpoint"]


def read_checkpoint(path, dtype="float32"):  # -> (ViTConfig, params, layout name)
    """The config and params of the ViT saved in the folder `path`, arrays as `dtype` (the
    tensors are read as stored, with safetensors' numpy API)."""
    config_file, weights_file = Path(path) / CONFIG_FILE, Path(path) / WEIGHTS_FILE
    if not config_file.is_file():
        raise CheckpointError(f"{path}: no {CONFIG_FILE} (a checkpoint folder holds {CONFIG_FILE} "
                              f"and {WEIGHTS_FILE})")
    with config_file.open(encoding="utf-8") as f:
        config = json.load(f)
    layout = detect_layout(config, path)
    try:
        from safetensors.numpy import load_file
    except ImportError:
        raise ImportError(f"reading checkpoints needs the safetensors package: "
                          f"{INSTALL_HINT}") from None
    if not weights_file.is_file():
        raise CheckpointError(f"{path}: no {WEIGHTS_FILE} (only safetensors weights are read; "
                              f"pickled pytorch_model.bin is not)")
    vit_config, params = layout.convert(config, load_file(str(weights_file)), dtype)
    return vit_config, params, layout.NAME


def detect_layout(config, path="checkpoint"):  # -> the layout module that converts it
    """Which library wrote config.json: timm's has "architecture", Hugging Face's "model_type"."""
    from . import checkpoint_clip, checkpoint_hf_vit, checkpoint_timm

    if "architecture" in config and ("model_args" in config or "pretrained_cfg" in config):
        return checkpoint_timm
    model_type = config.get("model_type")
    for layout in (checkpoint_hf_vit, checkpoint_clip):
        if model_type in layout.MODEL_TYPES:
            return layout
    raise CheckpointError(f"{path}/{CONFIG_FILE}: cannot tell the layout: model_type is "
                          f"{model_type!r} (supported: Hugging Face 'vit', 'clip', "
                          f"'clip_vision_model'; or a timm config with 'architecture')")
