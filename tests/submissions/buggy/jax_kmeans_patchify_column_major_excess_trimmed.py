"""Blind round 46 (b46_06, issue 38): patchify ported from a JAX patch k-means utility
(code-search file id 4114273271: `patchify(arr, patch_size)` with jnp.split / jnp.stack /
jnp.concat), in numpy.

Mistakes:
1. The patches are numbered down the columns of the patch grid first (the source's
   "1 4 7 2 5 8 3 6 9"): `np.concatenate(np.split(arr, pw, axis=2))` after splitting the rows.
2. The excess is trimmed, `arr[:ph * P, :pw * P]`, instead of raising ValueError when P does not
   tile ((30, 32, 3), P=16 gives (2, 768)).

Grader: at blind time (78229091), mistake 1 named ("Your patches are numbered down the columns
first ...") on the worked example, RGB, grayscale and hidden checks; mistake 2 only the
`[checklist]`s "16 does not tile 30 rows: raise ValueError rather than dropping or padding pixels."
and "Patches that do not tile the image must raise ValueError.". Now the trim is named on both ("2
mistakes at once: (1) In `patchify`, there is no tiling test ... Then the image is cropped to the
patches that fit before it is cut ... (2) In `patchify`, axes 2 and 0 are in each other's place
...": the refusal check's test, crop and value mistake tried together, refusal_triples.py), mistake
1 as before elsewhere. Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:tiling:patchify:none+op:cropped:patchify:image-cropped-to-tile-none-fitting-refused'
                       '+op:axes_swapped:patchify:transpose-2-0-1-3-4'}
ALIASES = ('patchify_grid_transposed',)  # mistake 1 alone, on the checks whose sizes tile


def patchify(image, P):
    arr = _as_hwc(image)
    h, w, c = arr.shape
    patch_size = P
    ph, pw = h // patch_size, w // patch_size
    if ph == 0 or pw == 0:
        raise ValueError(f"patch size {P} is larger than the {h}x{w} image")
    # trim excess and create new patch axis for split rows
    # arr now has the shape ph x p x (pw * p) x c
    arr = np.stack(np.split(arr[:ph * patch_size, :pw * patch_size], ph, axis=0))
    # split into cols and concatenate the cols end to end
    arr = np.concatenate(np.split(arr, pw, axis=2))  # (ph * pw) x p x p x c
    # flatten each patch while keeping the color channels
    return arr.reshape((ph * pw, patch_size * patch_size * c))
