"""Blind round 47 (b47_08, issue 38): num_patches ported from jasmcaus/caer,
caer/preprocessing/_patches.py (`_compute_n_patches`, sklearn's extract_patches_2d helper:
`n_h = i_h - p_h + 1`, `n_w = i_w - p_w + 1`, `all_patches = n_h * n_w`), with its checks that the
patch fits the image.

Mistakes:
1. Every overlapping P x P window is counted, `(H - P + 1) * (W - P + 1)`, and no ValueError is
   raised when P does not tile the image (only when P exceeds a side). 224x224, P=16 gives 43681
   instead of 196.

Grader: at blind time (a4c32119) and now, named: "You counted overlapping stride-1 windows, as a
CNN slides its kernel. ViT patches do not overlap: they tile the image ..." on patch-count (lecture
sizes, non-square, hidden); the non-tiling checks add checklists ("... raise ValueError
instead."). token-count and attention-cost are graded with the grader's num_patches. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count'}


def num_patches(H, W, P):
    def _compute_n_patches(i_h, i_w, p_h, p_w, max_patches=None):
        """Compute the number of patches that will be extracted in an image."""
        n_h = i_h - p_h + 1
        n_w = i_w - p_w + 1
        all_patches = n_h * n_w

        if max_patches:
            if isinstance(max_patches, int) and max_patches < all_patches:
                return max_patches
            return all_patches
        return all_patches

    if P > H:
        raise ValueError("Height of the patch should be less than the height of the image.")
    if P > W:
        raise ValueError("Width of the patch should be less than the width of the image.")
    return _compute_n_patches(H, W, P, P)
