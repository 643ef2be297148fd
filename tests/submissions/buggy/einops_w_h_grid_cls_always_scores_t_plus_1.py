"""Blind round 9 (b9_12, issue 38): a submission in the style of einops-based ViT blog posts /
notebooks.

Mistakes:
1. patchify: rearrange pattern '(h p1) (w p2) c -> (w h) (p1 p2 c)': the patch grid is
   read column by column (w outer) instead of raster order. Shows only when the patch
   grid has at least 2 rows and 2 columns.
   Sources: arogozhnikov/einops issue #384 ("order in composition matters"); vllm PR #52932
   (block-major vs raster patch order); huggingface/diffusers issue #11309.
2. num_tokens: always num_patches + 1; the cls_token flag is ignored. Shows only with
   cls_token=False.
   Sources: vit_prisma PosEmbedding (`token_length = num_patches + 1 if cfg.use_cls_token`)
   and ViT notebooks that hard-code `num_patches + 1`.
3. attention_scores: (num_tokens + 1) ** 2, the lecture's "O((T+1)^2) if you include
   [CLS]" applied to a count that already includes [CLS]. Shows on every input.
   Sources: lecture 4.2 section 5 formula; Practice 4.

Grader: all three named: cls_always ("With cls_token=False there is no [CLS] row"), op:count
("`T * T` is computed as `(T + 1) * (T + 1)`") and patchify_grid_transposed ("Your patches
are numbered down the columns first").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'attention-cost': 'op:count:attention_scores:T-plus-1',
          'patchify': 'patchify_grid_transposed'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer."""
    n = num_patches(H, W, P)
    return n + 1            # patches + [CLS]


def attention_scores(num_tokens):
    """Scores in one attention map of one head: O((T + 1)^2) with [CLS]."""
    return (num_tokens + 1) ** 2


def patchify(image, P):
    """rearrange(img, '(h p1) (w p2) c -> (w h) (p1 p2 c)', p1=P, p2=P)."""
    img = _as_hwc(image)
    H, W, C = img.shape
    num_patches(H, W, P)
    x = img.reshape(H // P, P, W // P, P, C).transpose(2, 0, 1, 3, 4)
    return x.reshape(-1, P * P * C)
