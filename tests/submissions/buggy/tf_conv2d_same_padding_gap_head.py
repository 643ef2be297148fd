"""Blind round 80 (b80_12, issue 38): conv_patch_embed and vit_forward ported from
poojasaxena/tensorflow-specialization-coursera `pool_common_scripts/script_for_testing_gpu.py`
(tf.nn.conv2d's NHWC/HWIO conventions). The delivered file's `_nhwc` is the solution's
`_as_hwc` here, cast to float as it was.

Mistakes:
1. conv_patch_embed (lines 53-60 of the file as delivered): `ceil(H / stride)` outputs with zero
   padding at the bottom and right (TensorFlow's SAME), not VALID `(H - k) // stride + 1`. The
   same when k = stride and the sizes tile; wrong for k != stride.
2. vit_forward (line 120): mean over all tokens (GAP) instead of the [CLS] row. Wrong on every
   input.

Grader: at blind time (a4b8673f) and now, 94/110. Mistake 1 named on kernel-stride ("zero-padded
to ceil(H / stride) outputs (TensorFlow's 'SAME' count), all at the bottom and right; ... (H - k)
// stride + 1"); mistake 2 named on vit-forward ("You averaged every token ... [CLS] row only:
x[0]"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same-end',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(_as_hwc(image), dtype=np.float64)
    H, W, C = x.shape
    kh, kw, cin, cout = K.shape
    if kh > H or kw > W:
        raise ValueError('kernel bigger than input')
    out_h = int(math.ceil(H / stride))
    out_w = int(math.ceil(W / stride))
    # pad the bottom/right so every output position has a full window
    pad_h = max((out_h - 1) * stride + kh - H, 0)
    pad_w = max((out_w - 1) * stride + kw - W, 0)
    x = np.pad(x, ((0, pad_h), (0, pad_w), (0, 0)), mode='constant')
    result = np.zeros((out_h, out_w, cout))
    for i in range(out_h):
        for j in range(out_w):
            win = x[i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            result[i, j] = np.tensordot(win, K, axes=([0, 1, 2], [0, 1, 2]))
    return result + b


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params['blocks']:
        x = encoder_block(x, block, params['heads'])
    x = layer_norm(x, params['ln_g'], params['ln_b'])
    pooled = x.mean(axis=0)
    return pooled @ params['W_head'] + params['b_head']
