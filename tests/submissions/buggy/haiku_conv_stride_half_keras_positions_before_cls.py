"""Blind round 51 (b51_07, issue 38): conv_equivalent after the Haiku meta_transformer `Patches`
module (`hk.Conv2D(output_channels=self.embed_dim, kernel_shape=self.patch_size,
stride=self.patch_size // 2, padding='SAME')`); embed_image ported from a Keras `PatchEncoder`
(`positions = tf.range(start=0, limit=config.vt_num_patches, delta=1)`, `encoded_patches +
self.position_embedding(positions)`), with [CLS] prepended afterwards.

Mistakes:
1. `conv_equivalent(P)` returns `(P, P // 2)`: (16, 8) for P = 16, (1, 0) for P = 1; the API
   wants (P, P).
2. Positions are added to the patch tokens only, `pos[0:N]`, before [CLS] is prepended: patch n
   gets pos[n] instead of pos[n+1] and the [CLS] row gets no position. vit_forward inherits it.

Grader: at blind time (b53db91d) and now, both named: M1 on kernel-stride ("In `conv_equivalent`,
the result `(P, P)` is returned as `(P, P // 2)`: its part 2 is half of `P`, `P // 2` (windows that
overlap by half), where the lecture's is `P`."), M2 on cls-and-positions ("In `embed_image`, `x +
params['pos']` is added before `np.vstack([params['cls'], x])`, to the rows of `x` alone, with the
first rows of `params['pos']`, `params['pos'][:len(x)]`: the rows it joins to `x` get nothing added
and each row of `x` gets the one meant for the row before it."); vit-checkpoint observes
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:tuple_parts:conv_equivalent:part-2-halved',
          'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def conv_equivalent(P):
    kernel_shape = P
    stride = P // 2
    return (kernel_shape, stride)


def embed_image(image, params):
    encoded_patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches_ = encoded_patches.shape[0]
    positions = np.arange(0, num_patches_, 1)
    encoded_positions = params["pos"][positions]
    encoded_patches = encoded_patches + encoded_positions
    return np.concatenate([params["cls"][None, :], encoded_patches], axis=0)
