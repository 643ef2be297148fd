"""Blind round 41 (b41_12, issue 38): patchify after Shkraboom/SAR-Buildings-Detection,
image_crop.py (split_and_save_image: width, height = img.size; for y in range(0, height,
chunk_size): for x in range(0, width, chunk_size): img.crop((x, y, x + chunk_size, y +
chunk_size))).

Mistakes:
1. patchify: `width, height = image.shape[:2]`, PIL's img.size order (W, H) applied to a numpy
   (H, W) shape: right for square images; every non-square tiling image raises (np.stack of
   chunks of different sizes).

Grader: at blind time (6092674) and now, named on patchify (RGB 4x6, gray 6x9 and hidden): the
loops over the grid of patches have their bounds swapped, the rows over `range(0, W, P)` and the
columns over `range(0, H, P)`. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:loop_bounds:patchify:grid-loop-bounds-swapped-stacked'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Cut chunk by chunk as in split_and_save_image: rows of chunks top to bottom, chunks left to
    right in a row; every chunk flattened row, column, channel.
    """
    image = _as_hwc(image)
    width, height = image.shape[:2]
    if P <= 0 or width % P or height % P:
        raise ValueError(f"patch size {P} does not tile a {image.shape[0]}x{image.shape[1]} image")

    nump_chunks = []
    for y in range(0, height, P):
        for x in range(0, width, P):
            chunk = image[y:y + P, x:x + P]  # img.crop((x, y, x + P, y + P))
            chunk_array = np.array(chunk)
            nump_chunks.append(chunk_array.reshape(-1))
    return np.stack(nump_chunks)
