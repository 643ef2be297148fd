"""Blind round 51 (b51_08, issue 38): num_patches with the ubiquitous `self.num_patches =
(img_size // patch_size) ** 2`, img_size taken as H, the tiling check kept; attention_scores a
porting slip from the Go/C idiom `math.Pow(float64(T), 2)`, as `math.pow`.

Mistakes:
1. `(H // P) ** 2`: only the height is used. Right on square images; num_patches(32, 48, 8)
   returns 16 (ref 24). num_tokens inherits it. Non-tiling sizes still raise ValueError.
2. `math.pow(num_tokens, 2)` returns a float: attention_scores(197) is 38809.0; the API asks for
   an int.

Grader: at blind time (b53db91d) and now, both named: M1 on patch-count ("In `num_patches`, `W //
P` reads `H` where `W` belongs: `H // P`, a copy of its sibling term (right only when H == W)."),
M2 on attention-cost ("In `attention_scores`, the count `T * T` comes out as a float (a number
ending in .0), as `/`, `math.pow` or a float constant make it: a count is an integer. ...");
token-count was graded with the grader's num_patches standing in. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'attention-cost': 'op:count_as_float:attention_scores:count-as-float'}


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    img_size = H
    return (img_size // P) ** 2


def attention_scores(num_tokens):
    return math.pow(num_tokens, 2)
