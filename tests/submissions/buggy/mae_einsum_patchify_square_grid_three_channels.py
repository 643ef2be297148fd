"""Blind round 48 (b48_01, issue 38): patchify ported from a PyTorch MAE-style `patchify(img, p)`
(einsum 'chpwq->hwpqc'; the image moved channels-first with `np.moveaxis(image, -1, 0)`).

Mistakes:
1. Square-image assumption `h = w = img.shape[2] // p`, where img.shape[2] is W: on a non-square
   image the reshape to `(3, W/P, P, W/P, P)` cannot hold H*W*3 values and raises ValueError
   (cannot reshape); (8, 4, 3) with P=2 should give (8, 12). Square RGB images are right.
2. Three channels hard-coded (`reshape(3, ...)`, `p ** 2 * 3`): a C=1 or C=4 image raises
   ValueError (cannot reshape); a gray (H, W) image raises IndexError (`moveaxis` leaves 2 axes
   and `img.shape[2]` fails).

Grader: at blind time (4b7c886d) mistake 1 got only the checklist ("Row n is patch n in raster
order over the patch grid ..."); the gray IndexError was named with a false cause on the worked
example and the grayscale check ("`image` is read as having a third, channel axis (its channel
count taken as `image.shape[2]`, as code written for (H, W, C) images only does) ...; a 2-D image
is one channel, (H, W, 1), `image[..., None]`": the code's `shape[2]` is the grid side, and
`image[..., None]` still raises), and the hard-coded 3 was not named.
Now named: both, as a pair (rgb_only.channels_as_rgb with the sibling `W // P` for `H // P`), on
the RGB and hidden checks: "2 mistakes at once: (1) In `patchify`, `H // P` reads `W` where `H`
belongs: `W // P`, a copy of its sibling term (right only when W == H). (2) In `patchify`, the
channel count is written as 3, as code for RGB images hard-codes it ..."; the gray IndexError is
no longer told as a channel axis read (checks/kinds/remedies.py: its `image[..., None]` still
fails), the worked example and grayscale checks get their checklists.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:H-as-W+op:channels_as_rgb:patchify:C-as-3'}


def patchify(image, P):
    img = np.asarray(image)
    if img.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    if img.shape[0] % P or img.shape[1] % P:
        raise ValueError(f"patch size {P} does not tile a {img.shape[0]}x{img.shape[1]} image")
    img = np.moveaxis(img, -1, 0)  # (H, W, C) -> (C, H, W)

    p = P
    h = w = img.shape[2] // p
    x = img.reshape(3, h, p, w, p)
    x = np.einsum('chpwq->hwpqc', x)
    x = x.reshape(h * w, p ** 2 * 3)
    return x
