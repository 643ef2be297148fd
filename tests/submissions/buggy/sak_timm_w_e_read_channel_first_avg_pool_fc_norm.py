"""Blind round 75 (b75_11, issue 38): linear_patch_embed and vit_forward ported from
innovator-zero/SAK `models/backbones/vit.py` (timm VisionTransformer: PatchEmbed conv proj,
`global_pool`, `num_prefix_tokens`, `fc_norm`).

Mistakes:
1. linear_patch_embed (line 73 of the file as delivered): the timm conv with
   `proj_weight = W_e.T.reshape(D, C, P, P)`, W_e's rows read (c, p1, p2) where the API (and the
   file's own patchify) uses (p1, p2, c). Wrong with C > 1 only.
2. vit_forward via forward_head (lines 13 and 158): `global_pool = 'avg'`: the logits come from
   the mean of the patch tokens (prefix token excluded), layer-normed as fc_norm, instead of the
   [CLS] row after the final norm. Wrong on every image.
The delivered file's top-level helpers (`_to_hwc`, `_conv2d`; `global_pool`,
`num_prefix_tokens`, `forward_features`, `forward_head`) are nested in the functions here.

Grader: at blind time (db1f63a6) and now, 93/110. Mistake 1 named on linear-patch-embed
("Your tokens pair each patch's values with W_e's rows channel first, (c, p1, p2)..."). Mistake 2
on vit-forward, judged partly named: "In `vit_forward` (in your `forward_head` ... line 159,
`x = layer_norm(...)`) ... comes after a pooling: `x[0]` is read as `x[1:].mean(axis=0)`...":
"It names the pooling, but it cites line 159 (fc_norm), not line 158 (the pool). It also presents
the norm/pool order as the issue, and that order changes nothing." Since 0848621f
(error_model/poolings.py, report/helper_place.py) named at the pooling's own line, the order
said as no part of it: "In `vit_forward` (in your `forward_head`, which it calls: line ...,
`x = x[num_prefix_tokens:].mean(axis=0)...`), `x[0]` is read as `x[1:].mean(axis=0)`: ... that
pooled row then goes through `layer_norm(...)`, and that order is no part of the mistake (row 0
read before that step or after it gives the same)." Every mistake named: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-after-before-layer_norm'}


def linear_patch_embed(image, W_e, b_e, P):
    # PatchEmbed: proj = Conv2d(in_chans, embed_dim, kernel_size=P, stride=P)
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError(f"expected (H, W) or (H, W, C), got {image.shape}")
        return image

    def _conv2d(x, weight, bias, stride):
        """x: (C, H, W), weight: (D, C, k, k) like nn.Conv2d -> (D, H', W')"""
        C, H, W = x.shape
        D, _, k, _ = weight.shape
        Ho = (H - k) // stride + 1
        Wo = (W - k) // stride + 1
        out = np.zeros((D, Ho, Wo))
        for i in range(Ho):
            for j in range(Wo):
                window = x[:, i * stride:i * stride + k, j * stride:j * stride + k]
                out[:, i, j] = np.tensordot(weight, window, axes=([1, 2, 3], [0, 1, 2])) + bias
        return out
    x = _to_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    D = W_e.shape[1]
    proj_weight = W_e.T.reshape(D, C, P, P)
    x = _conv2d(x.transpose(2, 0, 1), proj_weight, b_e, P)   # (D, H/P, W/P)
    x = x.reshape(D, -1).T                                    # flatten(2).transpose(1, 2) -> (N, D)
    return x


def vit_forward(image, params):
    global_pool = 'avg'
    num_prefix_tokens = 1
    def forward_features(image, params):
        x = embed_image(image, params)
        for blk in params["blocks"]:
            x = encoder_block(x, blk, params["heads"])
        return x

    def forward_head(x, params):
        if global_pool:
            x = x[num_prefix_tokens:].mean(axis=0) if global_pool == 'avg' else x[0]
        x = layer_norm(x, params["ln_g"], params["ln_b"])  # fc_norm
        return x @ params["W_head"] + params["b_head"]
    x = forward_features(image, params)
    x = forward_head(x, params)
    return x
