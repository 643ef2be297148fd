"""Blind round 55 (b55_11, issue 38): conv_patch_embed ported from dicarlolab/archconvnets
`archconvnets/unsupervised/bp_conv.c` (`conv`: one `img_sz` and one `output_sz` for both axes,
five nested loops); vit_forward's head from a Keras model (find_string id 71440038929:
`Dense(num_classes, activation="softmax")`).

Mistakes:
1. conv_patch_embed takes a single `output_sz = (img_sz - filter_sz) // stride + 1` from H and
   uses it for both output axes (the source assumes square images). Non-square images only: a
   wide one returns the wrong shape (7x9 k=7 s=2: (1, 1, 3), not (1, 2, 3); 8x12x3 stride 4:
   (2, 2, 6), not (2, 3, 6)), a tall one raises IndexError (12x8x3, 11x9, 9x7). Square images,
   tiling or not, are right.
2. vit_forward returns `softmax(x[0] @ W_head + b_head)`: probabilities, not logits. Wrong on
   every image (square ones too, where mistake 1 plays no part).

Grader: at blind time (cdc1de9a) both named. Mistake 1 on kernel-stride's "conv_patch_embed for
several kernels and strides" ("In `conv_patch_embed`, the columns of the output are counted from
H, `(H - k) // stride + 1`, where `(W - k) // stride + 1` belongs (a line written for the rows
and copied): a wider image loses its last columns, a narrower one has windows that run off its
right edge (right only when H == W)."); its hidden check only observed it, WRONG for wide images
(they return a wrong shape, raising nothing): "Your `conv_patch_embed` is right when H == W, and
raises IndexError for a non-square image: use H and W each where they belong". Mistake 2 on
vit-forward's two checks ("In `vit_forward`, the result goes through a softmax over its last
axis (a head built with activation='softmax') before it is returned: probabilities come back
where the values themselves (logits) belong; whoever reads them, such as the loss, applies the
softmax."); vit-checkpoint observes vit_forward.
Now named under the same names; the hidden check's observation, mended, says only what holds:
"Your `conv_patch_embed` is right when H == W, wrong for a non-square image: use H and W each
where they belong"; vit-forward quotes the result, "In `vit_forward`, the result
`linear(x[0], params['W_head'], params['b_head'])` goes through a softmax over its last axis
...". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    imgs = _as_hwc(image)
    img_sz = imgs.shape[0]
    n_channels = imgs.shape[2]
    filter_sz = K.shape[0]
    n_filters = K.shape[3]
    if filter_sz > imgs.shape[0] or filter_sz > imgs.shape[1]:
        raise ValueError("filter larger than image")
    output_sz = (img_sz - filter_sz) // stride + 1

    conv_output = np.zeros((output_sz, output_sz, n_filters))
    for channel in range(n_channels):
        for x in range(output_sz):
            for y in range(output_sz):
                for x_loc in range(filter_sz):
                    for y_loc in range(filter_sz):
                        conv_output[x, y, :] += K[x_loc, y_loc, channel, :] * imgs[stride*x + x_loc, stride*y + y_loc, channel]
    return conv_output + b


def vit_forward(image, params):
    """Class scores (num_classes,) of one image."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    outputs = softmax(x[0] @ params["W_head"] + params["b_head"])
    return outputs
