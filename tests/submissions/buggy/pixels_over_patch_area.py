"""num_patches returns HW / P**2, a float."""
EXPECT = {'patch-count': 'pixels_over_patch_area'}


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return H * W / P ** 2
