"""Blind round 9 (b9_11, issue 38): a submission ported from
torchvision/models/vision_transformer.py (VisionTransformer._process_input with conv_proj,
Encoder).

Mistakes:
1. conv_patch_embed: windows flattened channel-first (c, p1, p2), the torch conv weight
   layout (d, C, k, k), but multiplied with K.reshape(k*k*C, d), whose rows are in
   (p1, p2, c) order. Shows only on multi-channel images (C > 1); grayscale is right.
   Sources: torchvision conv_proj = nn.Conv2d(3, hidden_dim, patch_size, patch_size)
   (weight (hidden_dim, C, P, P)); lucidrains/vit-pytorch issue #352 (flatten order
   (p1 p2 pf c) vs (pf p1 p2 c)); Qwen3-VL issue #263 (patch flatten order).
2. vit_forward: torchvision's Encoder.forward adds the positions itself
   (`input = input + self.pos_embedding`), and the port keeps that line although
   embed_image has already added params["pos"]: positions are added twice. Shows on every
   input.
   Sources: pytorch/vision torchvision/models/vision_transformer.py Encoder.forward;
   lightly-ai MAEEncoder reusing vit_encoder.pos_embedding.

Grader: both named (the window order by contractions.flattened_apart, the positions by
terms.term_again); in blind round 9 neither was (only observed, and a checklist).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart',
          'vit-forward': "op:term_again:vit_forward:embed_image-plus-params['pos']"}


def conv_patch_embed(image, K, b, stride):
    """conv_proj as an im2col matmul: (H, W, C), K (k, k, C, d) -> (H', W', d)."""
    x = _as_hwc(image)
    H, W, C = x.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    weight = K.reshape(k * k * C, d)
    cols = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    Hp, Wp = cols.shape[:2]
    cols = cols.reshape(Hp, Wp, C * k * k)       # (C, k, k) per window, like conv weight (d, C, k, k)
    return cols @ weight + b


def vit_forward(image, params):
    """VisionTransformer.forward: _process_input, class token, encoder, heads on x[:, 0]."""
    x = embed_image(image, params)
    # Encoder.forward
    x = x + params["pos"]                        # input = input + self.pos_embedding
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])   # self.ln
    x = x[0]                                     # Classifier "token" taken at the front
    return x @ params["W_head"] + params["b_head"]      # self.heads
