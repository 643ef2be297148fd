"""Hugging Face ViT (`ViTModel`, `ViTForImageClassification`, model_type "vit") -> reference ViT.

Semantics, from config.json: LayerNorm eps `layer_norm_eps` (1e-12 in Google's checkpoints),
MLP activation `hidden_act` (exact GELU), pre-LN blocks, a final LayerNorm on every token, and
the [CLS] row into `classifier` (logits). A ViTModel has no classifier: its output is the
pooler, tanh(dense([CLS])) with `pooler_act`, or the normalised [CLS] row when saved without one.

Tensor names: transformers writes `vit.encoder.layer.{i}.attention.attention.query` and so on
(the `vit.` prefix only under ViTForImageClassification); transformers 5 names modules
`layers.{i}.attention.q_proj`, ... in memory, and both spellings are read.
"""
from .checkpoint_format import CheckpointError, Weights, activation_name, require, square
from .config import ViTConfig

NAME = "hf_vit"
MODEL_TYPES = ("vit",)
# checkpoint_format.BLOCK_PARTS -> (legacy name, transformers 5 name), the names under
# {prefix}encoder.layer.{i}. and {prefix}layers.{i}. respectively
BLOCK = {"q": ("attention.attention.query", "attention.q_proj"),
         "k": ("attention.attention.key", "attention.k_proj"),
         "v": ("attention.attention.value", "attention.v_proj"),
         "o": ("attention.output.dense", "attention.o_proj"),
         "fc1": ("intermediate.dense", "mlp.fc1"), "fc2": ("output.dense", "mlp.fc2"),
         "ln1": ("layernorm_before",) * 2, "ln2": ("layernorm_after",) * 2}


def convert(config, tensors, dtype):  # -> (ViTConfig, params)
    where = f"config.json (model_type {config.get('model_type')!r})"
    prefix = "vit." if any(name.startswith("vit.") for name in tensors) else ""
    w = Weights(tensors, dtype)
    head = _head(w, config, prefix)
    vit = ViTConfig(
        image_size=square(require(config, "image_size"), "image_size"),
        patch_size=square(require(config, "patch_size"), "patch_size"),
        channels=require(config, "num_channels"), dim=require(config, "hidden_size"),
        depth=require(config, "num_hidden_layers"), heads=require(config, "num_attention_heads"),
        mlp_dim=require(config, "intermediate_size"), num_classes=head["num_classes"],
        pool="cls", eps=float(require(config, "layer_norm_eps")), dtype=dtype,
        activation=activation_name(require(config, "hidden_act"), where),
        head_activation=head["activation"])
    emb = f"{prefix}embeddings."
    conv = f"{emb}patch_embeddings.projection"
    W_e, b_e = w.patch_embedding(f"{conv}.weight"), w.get(f"{conv}.bias")
    params = {"P": vit.patch_size, "heads": vit.heads, "W_e": W_e, "b_e": b_e,
              "cls": w.get(f"{emb}cls_token").reshape(-1),
              "pos": w.get(f"{emb}position_embeddings").reshape(-1, vit.dim),
              "blocks": [_block(w, prefix, i) for i in range(vit.depth)]}
    params["ln_g"], params["ln_b"] = w.norm(f"{prefix}layernorm")
    params.update(head["params"])
    w.check_all_used(where, ignore=(f"{emb}mask_token",))
    return vit, params


def _block(w, prefix, i):  # -> one block dict in the student API's layout
    legacy, new = f"{prefix}encoder.layer.{i}.", f"{prefix}layers.{i}."
    if f"{legacy}{BLOCK['ln1'][0]}.weight" in w:
        return w.block(lambda part: legacy + BLOCK[part][0])
    return w.block(lambda part: new + BLOCK[part][1])


def _head(w, config, prefix):  # -> num_classes, head activation and W_head/b_head
    if "classifier.weight" in w:  # ViTForImageClassification
        W, b = w.linear("classifier")
        return {"num_classes": len(b), "activation": "none", "params": {"W_head": W, "b_head": b}}
    if f"{prefix}pooler.dense.weight" in w:  # ViTModel with its pooler
        act = require(config, "pooler_act")
        if act != "tanh":
            raise CheckpointError(f"config.json: pooler_act {act!r} is not supported (only 'tanh')")
        W, b = w.linear(f"{prefix}pooler.dense")
        return {"num_classes": len(b), "activation": "tanh", "params": {"W_head": W, "b_head": b}}
    return {"num_classes": 0, "activation": "none", "params": {}}  # ViTModel without a pooler
