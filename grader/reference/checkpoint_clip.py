"""Hugging Face CLIP image tower (`CLIPVisionModel`, `CLIPVisionModelWithProjection`, or the
vision half of a `CLIPModel`) -> reference ViT.

Semantics, from config.json (a CLIPModel nests them under `vision_config`): LayerNorm eps
`layer_norm_eps` (1e-5), activation `hidden_act` (quick GELU in OpenAI's towers), a patch
embedding without bias, a LayerNorm on the tokens before the first block (`pre_layrnorm`, sic),
no LayerNorm on the tokens after the last one but `post_layernorm` on the pooled [CLS] row, then
`visual_projection` (no bias) when present. The output is the image embedding (`image_embeds`),
or the pooled features (`pooler_output`) for a CLIPVisionModel.

Tensor names start with `vision_model.` (CLIPModel, CLIPVisionModelWithProjection, and a
CLIPVisionModel saved by transformers 4) or with `embeddings.` directly (CLIPVisionModel saved by
transformers 5); both are read.
"""
import numpy as np

from .checkpoint_format import CheckpointError, Weights, activation_name, require, square
from .config import ViTConfig

NAME = "clip_vision"
MODEL_TYPES = ("clip_vision_model", "clip")
# checkpoint_format.BLOCK_PARTS -> the module's name under encoder.layers.{i}.
BLOCK = {"q": "self_attn.q_proj", "k": "self_attn.k_proj", "v": "self_attn.v_proj",
         "o": "self_attn.out_proj", "fc1": "mlp.fc1", "fc2": "mlp.fc2", "ln1": "layer_norm1",
         "ln2": "layer_norm2"}


def convert(config, tensors, dtype):  # -> (ViTConfig, params)
    vision = require(config, "vision_config") if config.get("model_type") == "clip" else config
    where = "config.json" + (" vision_config" if vision is not config else "")
    w = Weights(tensors, dtype)
    prefix = "vision_model." if any(name.startswith("vision_model.") for name in tensors) else ""
    projection = "visual_projection.weight" in w
    proj_dim = w.get("visual_projection.weight").shape[0] if projection else 0
    if projection and proj_dim != require(config, "projection_dim"):
        raise CheckpointError(f"visual_projection has {proj_dim} rows but config.json says "
                              f"projection_dim {config['projection_dim']}")
    vit = ViTConfig(
        image_size=square(require(vision, "image_size", where), "image_size"),
        patch_size=square(require(vision, "patch_size", where), "patch_size"),
        channels=require(vision, "num_channels", where), dim=require(vision, "hidden_size", where),
        depth=require(vision, "num_hidden_layers", where),
        heads=require(vision, "num_attention_heads", where),
        mlp_dim=require(vision, "intermediate_size", where), num_classes=proj_dim, pool="cls",
        eps=float(require(vision, "layer_norm_eps", where)), dtype=dtype,
        activation=activation_name(require(vision, "hidden_act", where), where),
        pre_norm=True, norm_pooled=True)
    emb = f"{prefix}embeddings."
    if f"{emb}patch_embedding.bias" in w:
        raise CheckpointError(f"{emb}patch_embedding has a bias; CLIP's has none")
    params = {"P": vit.patch_size, "heads": vit.heads,
              "W_e": w.patch_embedding(f"{emb}patch_embedding.weight"),
              "b_e": np.zeros(vit.dim, dtype),
              "cls": w.get(f"{emb}class_embedding").reshape(-1),
              "pos": w.get(f"{emb}position_embedding.weight")}
    params["ln_pre_g"], params["ln_pre_b"] = w.norm(f"{prefix}pre_layrnorm")
    params["blocks"] = [w.block(lambda part, i=i: f"{prefix}encoder.layers.{i}.{BLOCK[part]}")
                        for i in range(vit.depth)]
    params["ln_g"], params["ln_b"] = w.norm(f"{prefix}post_layernorm")
    if projection:
        params["W_head"], params["b_head"] = w.linear("visual_projection", bias=False)
    # a CLIPModel file also holds the text tower, which the image tower does not use
    w.check_all_used(where, ignore=("text_model.", "text_projection.", "logit_scale"))
    return vit, params
