"""Blind round 48 (b48_13, issue 38): conv_equivalent read off a hybrid conv-stem patch embed
(a conv stem downsamples by 2, then `self.proj = nn.Conv2d(hidden_dim, embed_dim,
kernel_size=patch_size // 2, stride=patch_size // 2)`), and one concept answer.

Mistakes:
1. `conv_equivalent(P)` returns `(P // 2, P // 2)`: (8, 8) for P=16, (1, 1) for P=2 and (0, 0)
   for P=1. The API wants `(P, P)`.
2. `ANSWERS["causal_mask"] = "speed"`. The right option is "bidirectional".

Grader: at blind time (4b7c886d), mistake 1 not named: "conv_equivalent(P) is (P, P)" (16 -> got
(8, 8)) and the hidden "random patch sizes" check gave only "[checklist] hint: Return two
integers, (kernel_size, stride): ViT's patches tile the image, so the kernel covers one P x P
patch (kernel_size P) and moves by a whole patch (stride P)."; mistake 2 named ("[named mistake]
hint: A mask saves no compute: the T x T scores are computed either way, then masked. ...").
Now named: mistake 1 on both conv_equivalent checks, "In `conv_equivalent`, the result `(P, P)`
is returned as `(P // 2, P // 2)`: every part is halved, `// 2` (as a hybrid ViT's patch
projection after a conv stem that has already halved the image: `kernel_size=patch_size // 2,
stride=patch_size // 2`), where the lecture's answer is `(P, P)`." (results.every_part_alike);
mistake 2 as before. Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:tuple_parts:conv_equivalent:every-part-halved',
          'no-causal-mask': 'causal_mask:speed'}


def conv_equivalent(P):
    kernel_size = P // 2
    stride = P // 2
    return (kernel_size, stride)


ANSWERS["causal_mask"] = "speed"
