"""Blind round 9 (b9_10, issue 38): a submission written by a MONAI / medical-imaging user
(grayscale, channel-first habits).

Mistakes:
1. patchify: a 2-D grayscale image gets its channel axis in FRONT, np.expand_dims(img, 0)
   (MONAI AddChannel / EnsureChannelFirst, torch unsqueeze(0)), while the rest of the code
   reads (H, W, C): the image becomes H=1 and raises ValueError (or, for P=1, gives the
   wrong shape). Shows only on 2-D grayscale images.
   Sources: linearlayer.substack.com "torch image tensors" (greyscale needs unsqueeze on
   the zeroth dimension); Project-MONAI/tutorials issue #748 (EnsureChannelFirst);
   yingkaisha/keras-vision-transformer issue #5 (non-square greyscale input).
2. patch_dim: P * P, the channel count dropped (grayscale default in_channels=1). Shows only
   when C != 1 (e.g. the default C=3).
   Sources: lucidrains/vit-pytorch issue #136 (patch_dim = channels * patch_size ** 2);
   public PatchEmbedding code with `nn.Linear(self.patch_size * self.patch_size, emb_size)`.

Grader: patch_dim is named (channels_forgotten: "a P x P patch holds P*P*C numbers"). Since
session 17 the 2-D image's axis in front is named too (op:channel_in_front, error_model/
inputs.py): checks/kinds/refusals.py weighs the gray readings on probe images, a raise by its
type, and this code's P = 1 gray probe returns the (1, H, W) reading's wrong value, which only
that reading reproduces (the worked example keeps its checklist).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'channels_forgotten',
          'patchify': 'op:channel_in_front:patchify:image-2d-channel-first'}


def patch_dim(P, C=3):
    """Numbers in one flattened patch."""
    return P * P          # in_channels=1: one number per pixel


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = np.expand_dims(img, 0)             # AddChannel: grayscale scan -> one channel
    if img.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    H, W, C = img.shape
    num_patches(H, W, P)
    grid = img.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
