"""timm `VisionTransformer` as `timm.models.save_for_hf` writes it -> reference ViT.

timm's config.json names the `architecture` (e.g. "vit_base_patch16_224"), the `global_pool`,
`num_classes`, the `model_args` the model was created with, and a `pretrained_cfg` with the
`input_size`. The architecture's own arguments (its timm model function's `model_args`) and the
`VisionTransformer` constructor's defaults are not in the file: they are the two tables below,
copied from timm 1.0.31 (timm/models/vision_transformer.py); the file's `model_args` override
them. An architecture outside ARCHITECTURES, or an argument the reference does not implement
(register tokens, layer scale, qk-norm, attention pooling, ...), raises CheckpointError.

Semantics: LayerNorm eps 1e-6 (timm's LayerNorm) unless the architecture says otherwise (1e-5 in
the CLIP towers), exact GELU (nn.GELU) or quick GELU, a fused qkv Linear whose rows are q, then
k, then v (split here into Wq, Wk, Wv); with global_pool "token" the final LayerNorm (`norm`)
acts on every token and the [CLS] row goes to the head; with "avg" the patch tokens (not [CLS])
are averaged, then `fc_norm` normalises the mean (fc_norm defaults to on for avg pooling).
"""

from .checkpoint_format import CheckpointError, Weights, activation_name, require, square
from .config import ViTConfig

NAME = "timm_vit"
EPS_TIMM = 1e-6  # timm.layers.LayerNorm's default
# VisionTransformer.__init__ defaults the reference depends on
DEFAULTS = {"img_size": 224, "patch_size": 16, "in_chans": 3, "num_classes": 1000,
            "global_pool": "token", "embed_dim": 768, "depth": 12, "num_heads": 12,
            "mlp_ratio": 4.0, "qkv_bias": True, "class_token": True, "pre_norm": False,
            "final_norm": True, "fc_norm": None, "norm_layer": None, "act_layer": None}
# arguments whose default the reference implements; any other value raises CheckpointError
UNSUPPORTED = {"qk_norm": False, "scale_attn_norm": False, "scale_mlp_norm": False,
               "proj_bias": True, "init_values": None, "pos_embed": "learn",
               "no_embed_class": False, "reg_tokens": 0, "pool_include_prefix": False,
               "dynamic_img_size": False, "dynamic_img_pad": False, "embed_norm_layer": None,
               "use_naflex": None}
CLIP = {"pre_norm": True, "eps": 1e-5}  # norm_layer=partial(LayerNorm, eps=1e-5)
QUICK = {**CLIP, "act_layer": "quick_gelu"}


def arch(patch_size, embed_dim, depth, num_heads, **extra):  # -> one ARCHITECTURES entry
    return {"patch_size": patch_size, "embed_dim": embed_dim, "depth": depth,
            "num_heads": num_heads, **extra}


ARCHITECTURES = {  # timm model function -> its model_args
    "vit_tiny_patch16_224": arch(16, 192, 12, 3),
    "vit_tiny_patch16_384": arch(16, 192, 12, 3),
    "vit_small_patch16_224": arch(16, 384, 12, 6),
    "vit_small_patch32_224": arch(32, 384, 12, 6),
    "vit_base_patch16_224": arch(16, 768, 12, 12),
    "vit_base_patch16_384": arch(16, 768, 12, 12),
    "vit_base_patch32_224": arch(32, 768, 12, 12),
    "vit_large_patch16_224": arch(16, 1024, 24, 16),
    "vit_large_patch32_224": arch(32, 1024, 24, 16),
    "vit_huge_patch14_224": arch(14, 1280, 32, 16),
    "vit_base_patch16_clip_224": arch(16, 768, 12, 12, **CLIP),
    "vit_base_patch32_clip_224": arch(32, 768, 12, 12, **CLIP),
    "vit_large_patch14_clip_224": arch(14, 1024, 24, 16, **CLIP),
    "vit_base_patch16_clip_quickgelu_224": arch(16, 768, 12, 12, **QUICK),
    "vit_base_patch32_clip_quickgelu_224": arch(32, 768, 12, 12, **QUICK),
    "vit_large_patch14_clip_quickgelu_224": arch(14, 1024, 24, 16, **QUICK),
}
NORM_LAYERS = {"layernorm": EPS_TIMM}  # model_args norm_layer -> its eps (timm.layers.LayerNorm)


def convert(config, tensors, dtype):  # -> (ViTConfig, params)
    args = resolve_args(config)
    w = Weights(tensors, dtype)
    fc_norm = args["global_pool"] == "avg" if args["fc_norm"] is None else bool(args["fc_norm"])
    vit = ViTConfig(
        image_size=square(args["img_size"], "img_size"),
        patch_size=square(args["patch_size"], "patch_size"), channels=args["in_chans"],
        dim=args["embed_dim"], depth=args["depth"], heads=args["num_heads"],
        mlp_dim=int(args["embed_dim"] * args["mlp_ratio"]),  # as timm's Block computes it
        num_classes=args["num_classes"], pool={"token": "cls", "avg": "mean"}[args["global_pool"]],
        eps=args["eps"], dtype=dtype,
        activation=activation_name(args["act_layer"] or "gelu", "timm act_layer"),
        pre_norm=args["pre_norm"], norm_pooled=fc_norm)
    params = {"P": vit.patch_size, "heads": vit.heads,
              "W_e": w.patch_embedding("patch_embed.proj.weight"),
              "b_e": w.get_or_zeros("patch_embed.proj.bias", vit.dim),
              "cls": w.get("cls_token").reshape(-1),
              "pos": w.get("pos_embed").reshape(-1, vit.dim)}
    if vit.pre_norm:
        params["ln_pre_g"], params["ln_pre_b"] = w.norm("norm_pre")
    params["blocks"] = [_block(w, i, vit.dim) for i in range(vit.depth)]
    params["ln_g"], params["ln_b"] = w.norm("fc_norm" if fc_norm else "norm")
    if vit.num_classes:
        params["W_head"], params["b_head"] = w.linear("head")
    w.check_all_used(f"timm {config['architecture']}")
    return vit, params


def resolve_args(config):  # -> every argument the conversion needs, with its source applied
    """VisionTransformer defaults < the architecture's arguments < config.json's model_args."""
    arch = require(config, "architecture")
    if arch not in ARCHITECTURES:
        raise CheckpointError(f"config.json: timm architecture {arch!r} is not one the reference "
                              f"knows (supported: {', '.join(sorted(ARCHITECTURES))})")
    model_args = dict(config.get("model_args") or {})
    args = {**DEFAULTS, "eps": EPS_TIMM, **ARCHITECTURES[arch], **model_args}
    # the top-level copies describe the saved weights
    args.update({key: config[key] for key in ("num_classes", "global_pool") if key in config})
    if "img_size" not in model_args and "input_size" in config.get("pretrained_cfg", {}):
        args["in_chans"], *size = config["pretrained_cfg"]["input_size"]
        args["img_size"] = size
    if "in_chans" in model_args:
        args["in_chans"] = model_args["in_chans"]
    if args["norm_layer"] is not None:
        if args["norm_layer"] not in NORM_LAYERS:
            raise CheckpointError(f"config.json: timm norm_layer {args['norm_layer']!r} "
                                  f"is not supported")
        args["eps"] = NORM_LAYERS[args["norm_layer"]]
    for key, default in UNSUPPORTED.items():
        if key in args and args[key] != default:
            raise CheckpointError(f"timm {arch}: {key}={args[key]!r} is not implemented by the "
                                  f"reference (only {key}={default!r})")
    if not args["class_token"]:
        raise CheckpointError(f"timm {arch}: class_token=False is not implemented by the reference")
    if args["global_pool"] not in ("token", "avg"):
        raise CheckpointError(f"timm {arch}: global_pool {args['global_pool']!r} is not "
                              f"implemented (only 'token' and 'avg')")
    if not args["final_norm"]:
        raise CheckpointError(f"timm {arch}: final_norm=False is not implemented by the reference")
    return args


def _block(w, i, d):  # -> one block dict; timm's fused qkv [3d, d] rows are q, then k, then v
    base = f"blocks.{i}."
    Wqkv, bqkv = w.linear(base + "attn.qkv")  # [d, 3d], [3d]
    block = {}
    for j, (Wk, bk) in enumerate((("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv"))):
        block[Wk], block[bk] = Wqkv[:, j * d:(j + 1) * d], bqkv[j * d:(j + 1) * d]
    block["Wo"], block["bo"] = w.linear(base + "attn.proj")
    block["W1"], block["b1"] = w.linear(base + "mlp.fc1")
    block["W2"], block["b2"] = w.linear(base + "mlp.fc2")
    block["ln1_g"], block["ln1_b"] = w.norm(base + "norm1")
    block["ln2_g"], block["ln2_b"] = w.norm(base + "norm2")
    return block
