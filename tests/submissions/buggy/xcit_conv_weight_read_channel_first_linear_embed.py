"""Blind round 20 (b20_11, issue 38): linear_patch_embed ported from facebookresearch/xcit
(xcit.py: ConvPatchEmbed, the patch embedding as a convolution, then flatten(2).transpose(1, 2)).
The student's top-level helper `_hwc` is nested in linear_patch_embed here: the builder replaces
only the solution's own definitions.

Mistake:
1. linear_patch_embed is built on conv_patch_embed with the kernel read from W_e as a torch Conv2d
   weight, `W_e.reshape(C, P, P, d)` moved to (P, P, C, d), instead of `W_e.reshape(P, P, C, d)`:
   W_e's (p1, p2, c) rows are read as (c, p1, p2), wrong only with more than one channel.

Grader: at blind time and now, named: linear_embed_channel_first ("built on a convolution, read
W_e as a (P, P, C, d) kernel"); kernel-stride's linear-map check, which runs this
linear_patch_embed, gives its checklist; vit-checkpoint observes it. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first'}


def linear_patch_embed(image, W_e, b_e, P):
    def _hwc(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    weight = W_e.reshape(C, P, P, d)          # Conv2d weight: (in_chans, kh, kw) per output
    K = weight.transpose(1, 2, 0, 3)          # -> (kh, kw, in_chans, out)
    y = conv_patch_embed(x, K, b_e, P)        # (Hp, Wp, d)
    Hp, Wp = y.shape[0], y.shape[1]
    return y.reshape(Hp * Wp, d)              # flatten(2).transpose(1, 2)
