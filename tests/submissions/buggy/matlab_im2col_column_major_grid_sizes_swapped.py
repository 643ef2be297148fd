"""Blind round 18 (b18_06, issue 38): linear_patch_embed on a port of MATLAB's
`im2col(I, [P P], 'distinct')` (blocks listed in column-major order), then put back into raster
order.

Mistake:
1. The column-major token list is reordered with `tokens.reshape(gh, gw, d).transpose(1, 0, 2)`;
   it must be viewed as (gw, gh) before the transpose. Right on square images; on non-square ones
   the tokens come out scrambled (the shape is right). patchify itself is right.
The student's `_im2col_distinct` is nested in linear_patch_embed, and its `_image3` (a float cast
and the solution's checks) is `_as_hwc` here: the builder replaces only the solution's own
definitions.

Grader: at blind time, observed only: "returns the expected rows in another order"
(rows_reordered), with kernel-stride's equivalence checklist. Now named on both linear-patch-embed
checks (grids.column_major_swapped: the patches listed column by column and put back with
`.reshape(H // P, W // P, -1).transpose(1, 0, 2)` where the list is (W // P, H // P)).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:column_major_swapped:linear_patch_embed/patchify:column-major-put-back-sizes-swapped'}


def linear_patch_embed(image, W_e, b_e, P):
    """Tokens from the im2col port (column-major blocks), put back into raster order."""
    def _im2col_distinct(I, P):
        """im2col(I, [P P], 'distinct'): one row per block, blocks in column-major order."""
        M, N, C = I.shape
        cols = []
        for bj in range(N // P):          # MATLAB walks down each column of blocks first
            for bi in range(M // P):
                cols.append(I[bi * P:(bi + 1) * P, bj * P:(bj + 1) * P, :].reshape(-1))
        return np.array(cols)

    I = _as_hwc(image)
    M, N, C = I.shape
    num_patches(M, N, P)
    gh, gw = M // P, N // P
    tokens = _im2col_distinct(I, P) @ W_e + b_e          # column-major token order
    d = tokens.shape[1]
    return tokens.reshape(gh, gw, d).transpose(1, 0, 2).reshape(gh * gw, d)
