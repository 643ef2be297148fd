"""Blind round 12 (b12_13, issue 38): Source style ported: lucidrains/vit-pytorch simple_vit.py
(posemb_sincos_2d: fixed 2-D sine-cosine positions added to the patch tokens) / MoCo v3's
build_2d_sincos_posemb, kept with the API's [CLS].

Mistake 1 (embed_image): params["pos"] is ignored; the patch tokens get fixed 2-D sin-cos
positions computed from the grid (x sin, x cos, y sin, y cos, zero-padded to d), and the [CLS]
row gets no position at all. Right: add the learned params["pos"] (N + 1, d), row 0 to [CLS].
Shows for every image and parameters (and on the why-positions check only if it tests
that params["pos"] is used).

Grader: the worked example (d=2, where the sin-cos table is all zero) gets embed_positions_forgotten
("You forgot the positions ... Add params[\"pos\"]": true there, its fix right, but it names
the neighbouring mistake); RGB gets the checklist, the hidden check no hint; why-positions the
bag-of-tiles checklist. Since: a mistake named on one or two values must explain the function's
other failures too, so the worked example is observed (only row 0 right), nothing named.
Now named (forward.positions_sincos: the learned table replaced by MAE's fixed 2-D sin-cos one,
frequencies 1 / 10000 ** (i / (d // 4)), columns then rows, none for [CLS]) on
every cls-and-positions check; why-positions' property gives its verdict, a bag of tiles (true on
its d = 2 image, where the table is all zero); vit-checkpoint observes the broken embed_image (an
integration check's observation, not in EXPECT). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:positions_sincos:embed_image:pos-as-sincos-mae',
          'why-positions': 'bag_of_tiles'}


def embed_image(image, params):
    def posemb_sincos_2d(h, w, dim, temperature=10000.0):
        y, x = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
        pos_dim = dim // 4
        omega = np.arange(pos_dim) / max(pos_dim, 1)
        omega = 1.0 / (temperature ** omega)
        y = y.reshape(-1)[:, None] * omega[None, :]
        x = x.reshape(-1)[:, None] * omega[None, :]
        pe = np.concatenate([np.sin(x), np.cos(x), np.sin(y), np.cos(y)], axis=1)
        return np.pad(pe, ((0, 0), (0, dim - pe.shape[1])))

    image = _as_hwc(image)
    P = params["P"]
    h, w = image.shape[0] // P, image.shape[1] // P
    x = linear_patch_embed(image, params["W_e"], params["b_e"], P)
    x = x + posemb_sincos_2d(h, w, x.shape[1])
    return np.concatenate([params["cls"][None, :], x], axis=0)
