"""Blind round 71 (b71_04, issue 38): conv_patch_embed (with its `conv2d`) ported from
tinygrad/tinygrad `extra/models/vit.py` (and `extra/models/transformer.py`).

Mistakes:
1. conv_patch_embed (line 61 of the file as delivered): `conv2d(..., stride=k)`, the stride
   argument ignored and the kernel size used (tinygrad's `x.conv2d(*self.embedding,
   stride=16)` ties the stride to the patch size). Right whenever stride == k (so the patch
   equivalence passes), wrong size and values for overlapping or gapped convolutions.
The delivered file's top-level helpers `conv2d` and `_image` are nested here.

Grader: at blind time (3f040026) and now, 106/110, named on kernel-stride ("In
`conv_patch_embed`, `windows[::stride, ::stride]` steps by the window's own size ... instead of
the stride it is given: right only when the stride equals the kernel size"; the quoted code is
the model solution's, the student's line is `conv2d(..., stride=k)`). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride_window:conv_patch_embed:windows-stride-as-window'}


def conv_patch_embed(image, K, b, stride):
  def _image(x):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 2: x = x[:, :, None]
    if x.ndim != 3: raise ValueError("image must be (H, W) or (H, W, C)")
    return x

  def conv2d(x, weight, bias, stride):
    # x: (cin, H, W), weight: (cout, cin, k, k) like tinygrad's conv2d
    cout, cin, k, _ = weight.shape
    _, H, W = x.shape
    oh, ow = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((cout, oh, ow))
    for i in range(oh):
      for j in range(ow):
        win = x[:, i*stride:i*stride+k, j*stride:j*stride+k]
        out[:, i, j] = (weight * win[None]).sum(axis=(1, 2, 3)) + bias
    return out

  x = _image(image)
  k = K.shape[0]
  if k > x.shape[0] or k > x.shape[1]: raise ValueError("kernel larger than image")
  # HWIO -> OIHW, as in load_from_pretrained: np.transpose(dat['embedding/kernel'], (3,2,0,1))
  weight = np.transpose(K, (3, 2, 0, 1))
  y = conv2d(x.transpose(2, 0, 1), weight, b, stride=k)
  return y.transpose(1, 2, 0)
