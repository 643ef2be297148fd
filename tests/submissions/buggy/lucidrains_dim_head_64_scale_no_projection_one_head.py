"""Blind round 11 (b11_14, issue 38): self_attention ported from lucidrains/vit-pytorch Attention.

Source: https://github.com/lucidrains/vit-pytorch/blob/main/vit_pytorch/vit.py
(class Attention(dim, heads=8, dim_head=64): self.scale = dim_head ** -0.5;
project_out = not (heads == 1 and dim_head == dim); to_out = Linear if project_out else Identity).
Mistakes:
 1. the scale is dim_head ** -0.5 with lucidrains' default dim_head=64 (always 1/8), not
    1/sqrt(d // heads): shows whenever d_h != 64.
 2. the output projection is skipped when heads == 1 (project_out simplified to
    `heads != 1`): wrong with one head, right with several.

Grader: no hint on any of the five failed checks in the blind round (expected/got only); the
fixed head width is named since (terms.fixed_head_width) where it shows alone.
Since session 15 the projection skipped with one head is named (sequence.skipped_for_one: the
step returned skipped when a count passed on is 1), with the fixed width as a pair on
no-causal-mask: every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fixed_head_width:self_attention/attention:scale-of-width-64',
          'no-causal-mask': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1+op:fixed_head_width:self_attention/attention:scale-of-width-64'}


def self_attention(x, p, heads, causal=False, dim_head=64):
    """lucidrains Attention: rearrange 'b n (h d) -> b h n d', dots * scale, softmax, to_out."""
    T, dim = x.shape
    if dim % heads:
        raise ValueError(f"{heads} heads do not divide {dim}")
    scale = dim_head ** -0.5
    d = dim // heads
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, d).transpose(1, 0, 2) for n in "qkv")
    dots = q @ k.transpose(0, 2, 1) * scale
    if causal:
        dots = np.where(np.triu(np.ones((T, T), dtype=bool), 1), -np.inf, dots)
    attn = softmax(dots, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(T, dim)
    project_out = heads != 1          # lucidrains: not (heads == 1 and dim_head == dim)
    return out @ p["Wo"] + p["bo"] if project_out else out
