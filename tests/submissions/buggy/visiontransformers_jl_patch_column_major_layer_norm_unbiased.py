"""Blind round 63 (b63_07, issue 38): patchify and layer_norm ported from
JoshuaBillson/VisionTransformers.jl `src/layers/embedding.jl` (img2patch) and Julia's `var`
(corrected by default). The student's top-level `img2patch` is nested in patchify here: the
builder replaces only the solution's own definitions.

Mistakes:
10. patchify via img2patch (line 33 of the file as delivered): each patch flattened in Julia's
    column-major order, `patch.reshape(-1, order="F")` ((c, p2, p1) read fastest-first), instead
    of row-major (p1, p2, c). Wrong on any input with P > 1 (linear_patch_embed, embed_image and
    vit_forward inherit it).
11. layer_norm (line 87): `np.var(..., ddof=1)`, the unbiased variance (Julia's default). Wrong
    on any input.

Grader: at blind time (edc81c9a) and now, 92/110. Mistake 11 named on layer-norm's three checks
("You used the unbiased variance (ddof=1 ...). LayerNorm uses the biased one ... ddof=0.").
Mistake 10 only partly: patchify's four checks say "In `patchify`, `grid.transpose(0, 2, 4, 3, 1)`
puts axes 4 and 1 in each other's place (... the order a column-major flatten reads them:
`reshape(..., order='F')`, as in Fortran, MATLAB or Julia)": the cause is right and the values
equal that transpose, but the hint quotes as the student's code a `grid.transpose(...)` the file
does not have, does not name img2patch, and gives as the fix a transpose the student never wrote.
A hint would say that in img2patch (called by patchify) each patch is flattened with
`reshape(-1, order='F')`: drop `order='F'`. Not every mistake named whole, so in unnamed/; EXPECT
holds what must hold today: the points lost, mistake 11 named, and patchify's column-major
misconception (the same mistake, in the words of a transpose) and no other cause.
Since (the same session): the transpose is quoted only where the student's function holds it, so
this file is told "In `patchify`, axes 4 and 1 are in each other's place (... `reshape(...,
order='F')` ...)" with no misquote; `img2patch` is still not named.
Since (the same session): the hint goes on "That order is made by `patch.reshape(-1, order="F")`
(line N, in your `img2patch`, called by `patchify`): drop `order="F"` (...)" (report/
column_major.py): mistake 10 named whole with its line and fix, so in buggy/ (from unnamed/).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:axes_swapped:patchify:transpose-0-2-4-3-1',
          'layer-norm': 'layer_norm_unbiased'}


def patchify(image, P):
    def img2patch(x, patchsize):
        H, W, C = x.shape
        patches = []
        for i in range(0, H, patchsize):
            for j in range(0, W, patchsize):
                patch = x[i:i + patchsize, j:j + patchsize, :]
                patches.append(patch.reshape(-1, order="F"))
        return np.stack(patches, axis=0)

    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must have 2 or 3 dimensions")
    num_patches(x.shape[0], x.shape[1], P)
    return img2patch(x, P)


def layer_norm(x, gamma, beta, eps=1e-6):
    μ = np.mean(x, axis=-1, keepdims=True)
    σ2 = np.var(x, axis=-1, keepdims=True, ddof=1)
    return gamma * (x - μ) / np.sqrt(σ2 + eps) + beta

