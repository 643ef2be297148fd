"""Blind round 41 (b41_08, issue 38): conv_patch_embed, conv_equivalent and vit_forward after a
dm-haiku ViT classifier (code-search file id 18743396665, meta_transformer: Patches(hk.Module)
with hk.Conv2D(kernel_shape=patch_size, stride=patch_size // 2, padding='SAME'); the
VisionTransformer returns hk.Linear(num_classes) of every token).

Mistakes:
1. conv_patch_embed: TensorFlow's 'SAME' padding (ceil(H / stride) outputs, the zero padding
   split low/high) instead of a valid convolution: the same only where the windows tile.
2. conv_equivalent: `(P, P // 2)`, the source's overlapping stride, where (P, P) belongs.
3. vit_forward: the head on every token and the logits averaged over the tokens, instead of the
   [CLS] row's logits.

Grader: at blind time (6092674) and now, every mistake named: the 'SAME' padding and `(P, P)`
returned as `(P, P // 2)` on kernel-stride (visible and hidden), "You averaged every token" on
vit-forward (visible and hidden). vit-checkpoint observes the broken vit_forward. In buggy/.
(EXPECT keeps one name per exercise: kernel-stride names the padding on its convolution
checks and op:tuple_parts:conv_equivalent:part-2-halved on its conv_equivalent checks.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def conv_patch_embed(image, K, b, stride):
    """hk.Conv2D(output_channels=d, kernel_shape=k, stride=stride, padding='SAME') on one
    (H, W, C) image: out[i, j] = sum(window * K) + b.
    """
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")

    # 'SAME' padding (TensorFlow / lax convention): out = ceil(in / stride), the padding split
    # as evenly as possible with the extra pixel at the end.
    out_h = -(-H // stride)
    out_w = -(-W // stride)
    pad_h = max((out_h - 1) * stride + k - H, 0)
    pad_w = max((out_w - 1) * stride + k - W, 0)
    padded = np.pad(image, ((pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)))

    out = np.empty((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            window = padded[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out


def conv_equivalent(P):
    """(kernel_size, stride) of the patch convolution (Practice 7): kernel_shape=patch_size,
    stride=patch_size // 2, as in the Patches module."""
    return (P, P // 2)


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    The haiku VisionTransformer returns a sequence of logits, hk.Linear(num_classes) applied to
    every token ([T, V]); one image's logits are their average over the sequence.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    embeddings = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = embeddings @ params["W_head"] + params["b_head"]  # [T, V]
    return logits.mean(axis=0)
