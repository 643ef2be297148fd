"""The numpy reference ViT: every name of the student API, and a batched model.

`REFERENCE` maps each student-API function name to its reference implementation; the grading
engine looks functions up there. The plain modules follow the lecture's section 3: counting
(token counts), patches (image -> tokens), erf and layers (softmax, LayerNorm, GELU), attention,
encoder (block and single-image forward). config (ViTConfig) and model (init_params, ViT) make
the batched model, which runs fast.py, the same math made fast; checkpoints reads pretrained ones.
"""
from .attention import attention, causal_mask, merge_heads, self_attention, split_heads
from .config import ViTConfig
from .counting import attention_scores, num_patches, num_tokens, patch_dim
from .encoder import encoder_block, mlp, vit_forward
from .erf import erf, erfc
from .layers import ACTIVATIONS, gelu, gelu_tanh, layer_norm, linear, softmax
from .model import ViT, init_params, param_shapes
from .patches import conv_equivalent, conv_patch_embed, embed_image, linear_patch_embed, patchify

REFERENCE = {f.__name__: f for f in (  # in the lecture's order
    num_patches, num_tokens, patch_dim, attention_scores, patchify, linear_patch_embed,
    conv_patch_embed, conv_equivalent, embed_image, softmax, layer_norm, self_attention,
    encoder_block, vit_forward)}

__all__ = [
    "ACTIVATIONS", "REFERENCE", "ViT", "ViTConfig", "attention", "attention_scores", "causal_mask",
    "conv_equivalent", "conv_patch_embed", "embed_image", "encoder_block", "erf", "erfc", "gelu",
    "gelu_tanh", "init_params", "layer_norm", "linear", "linear_patch_embed", "merge_heads", "mlp",
    "num_patches", "num_tokens", "param_shapes", "patch_dim", "patchify", "self_attention",
    "softmax", "split_heads", "vit_forward"]
