"""Blind round 60 (b60_15, issue 38): num_patches and vit_forward ported from
nikhilroxtomar/Vision-Transformer-with-ResNet50-in-TensorFlow `resnet50-vit.py` (the config's
`num_patches = int(image_size**2 / patch_size**2)`, ResNet50ViT's `Dense(num_classes,
activation="softmax")` head).

Mistakes:
22. num_patches (line 9 of the file as delivered; num_tokens inherits it) counts by area,
    `int(H * W / P**2)`, with no tiling check. Wrong only when P does not tile H or W ((5, 4, 2)
    returns 5 instead of raising ValueError).
23. vit_forward (line 133) returns `softmax(x[0] @ W_head + b_head)`: probabilities, not logits.
    Wrong on any input.

Grader: at blind time (528b2ec3) and now, 96/110, both named. Mistake 22 on patch-count's two
non-tiling checks ("2 mistakes at once: (1) In `num_patches`, there is no tiling test ... (2) the
patches are counted by area, `H * W // (P * P)`"); token-count keeps full marks around it.
Mistake 23 on vit-forward's two checks ("In `vit_forward`, the result ... goes through a softmax
over its last axis (as a head built with activation='softmax' applies one)"); vit-checkpoint
observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def num_patches(H, W, P):
    return int(H * W / P ** 2)


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0, :]
    return softmax(x @ params["W_head"] + params["b_head"])
