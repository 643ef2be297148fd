"""Blind round 28 (b28_08, issue 38): conv_patch_embed ported from PyImageSearch "Sliding Windows
for Object Detection with Python and OpenCV" (the sliding_window(image, stepSize, windowSize)
generator over y then x, `(winW, winH)` tuples, windows that run off the edge skipped). The
student's top-level helper `sliding_window` is nested in conv_patch_embed here: the builder
replaces only the solution's own definitions.

Mistakes:
1. OpenCV's (width, height) order leaks into `(w, h) = image.shape[:2]`: the windows are right
   but laid out in a ((W-k)//s+1, (H-k)//s+1) grid. Shows only on non-square images.

Grader: at blind time and now, named: the result reshaped with its first two sizes the other way
round, (W', H', ...) for (H', W', ...), on kernel-stride (quoting the reference's tensordot, not
the student's loop; the cause and its fix are true of the student's reshape). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-sides-swapped-reshaped'}


def conv_patch_embed(image, K, b, stride):
    def sliding_window(image, stepSize, windowSize):
        # slide a window across the image
        for y in range(0, image.shape[0], stepSize):
            for x in range(0, image.shape[1], stepSize):
                # yield the current window
                yield (x, y, image[y:y + windowSize[1], x:x + windowSize[0]])

    image = _as_hwc(image)
    k = K.shape[0]
    (w, h) = image.shape[:2]
    if k > h or k > w:
        raise ValueError(f"kernel {k} is larger than the image")
    (winW, winH) = (k, k)
    out_h = (h - winH) // stride + 1
    out_w = (w - winW) // stride + 1
    feats = []
    for (x, y, window) in sliding_window(image, stepSize=stride, windowSize=(winW, winH)):
        # if the window does not meet our desired window size, ignore it
        if window.shape[0] != winH or window.shape[1] != winW:
            continue
        feats.append(np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b)
    return np.array(feats).reshape(out_h, out_w, -1)
