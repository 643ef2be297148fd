"""Blind round 77 (b77_10, issue 38): patchify and encoder_block ported from
stefanhige/nd-array-patches `patch_handling.py` (get_patches/get_patch: divs per dimension,
unravel_index over the patch grid).

Mistakes:
1. patchify (line 70 of the file as delivered, with get_patch's warning): the tiling test is
   never called; a non-tiling P only triggers `warnings.warn` (the source's behaviour) and the
   image is cut into (H // P) x (W // P) blocks of `int(H / divs)` x `int(W / divs)` pixels,
   larger than P (30x32x3, P=16 gives (2, 1440)), instead of raising ValueError.
2. encoder_block (line 142): the second LayerNorm reuses `ln1_g, ln1_b` instead of `ln2_g,
   ln2_b`.
The delivered file's top-level helpers `get_patch` and `get_patches` are nested in patchify
here.

Grader: at blind time (15b4065f) and now, 97/110. Mistake 2 named on encoder-block ("given
p['ln1_g'], p['ln1_b'] ... (p['ln2_g'], p['ln2_b'])"); mistake 1 partly, at blind time with a
wrong cause: "Cropping the leftover pixels hides the problem; raise ValueError ...", of code
that crops nothing (the fix is right). Since 6acf7dd9 (a listed crop weighed on the check's other
cases: kinds/listed_refuted.py) the checklists: "16 does not tile 30 rows: raise ValueError
rather than dropping or padding pixels." and "Patches that do not tile the image must raise
ValueError."; since 33910974 (checks/kinds/refusal_values.py) the errors check's observation:
"returned 2 patches of 1440 values each for a 30 x 32 x 3 image with P = 16 (patches of 16 x 16
x 3 = 768 values would not tile it): raise ValueError when P does not divide H or W." (its
warning is issued only where the H // P blocks leave pixels over, not on 30 x 32 with P = 16:
none is said). The hidden check keeps its checklist: P = 2 on its 9 x 8 x 3 image gives rows
of 2 x 2 x 3 values. Not named yet (an observation, no cause): that a non-tiling P only warns.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': None,
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def patchify(image, P):
    import warnings
    def get_patch(volume, index, divs):
        '''
        Args:
            - volume (np.array)   : multi channel (X_1, X_2, C)
            - index (int)         : flattened patch iterator, 0 to prod(divs)-1
            - divs (tuple)        : amount to divide each dimension
        Output:
            - patch (np.array)    : patch at index
        '''
        shape = volume.shape[:-1]
        if np.any(np.mod(shape, divs)):
            warnings.warn(('At least one dimension of the input volume can\'t be '
                           'divided by divs without remainder.'))
        widths = [int(s / d) for s, d in zip(shape, divs)]
        # create nd index
        index_ = np.unravel_index(index, divs)
        # coordinates
        c = [s * w for s, w in zip(index_, widths)]
        slice_idx = tuple(slice(c[dim], c[dim] + widths[dim]) for dim in range(len(c)))
        return volume[slice_idx]

    def get_patches(volume, divs):
        patches = []
        # simply iterate over all indices
        for idx in np.arange(np.prod(divs)):
            patches.append(get_patch(volume, idx, divs))
        return np.stack(patches, axis=0)

    volume = np.asarray(image)
    if volume.ndim == 2:
        volume = volume[:, :, None]
    if volume.ndim != 3:
        raise ValueError('image must be (H, W) or (H, W, C)')
    H, W, C = volume.shape
    divs = (max(H // P, 1), max(W // P, 1))
    patches = get_patches(volume, divs)          # (N, P, P, C)
    return patches.reshape(patches.shape[0], -1)


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p['ln1_g'], p['ln1_b']), p, heads)
    h = layer_norm(x, p['ln1_g'], p['ln1_b'])
    return x + gelu(h @ p['W1'] + p['b1']) @ p['W2'] + p['b2']
