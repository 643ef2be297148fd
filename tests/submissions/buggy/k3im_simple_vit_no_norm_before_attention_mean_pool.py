"""Blind round 38 (b38_15, issue 38): anas-rz/k3im, k3im/simple_vit.py (Keras 3 SimpleViT:
Transformer(), FeedForward() with its own LayerNormalization, pool="mean").

Mistakes:
1. encoder_block: `x = x + self_attention(x, ...)` with no LayerNorm before attention (in k3im
   only FeedForward normalises its input); ln1_g and ln1_b are never read.
2. vit_forward: the final LayerNorm, then the mean over every token (GlobalAveragePooling1D,
   pool="mean") instead of the [CLS] row.

Grader: at blind time (60400f1) and now, both named: 1 at blind time "the step `layer_norm(x,
p['ln1_g'], p['ln1_b'], eps)` is left out" (now: "In `encoder_block`, the LayerNorm (with the model
solution's `p['ln1_g']` and `p['ln1_b']`) is left out: its input goes on as it
is.") on encoder-block; 2 "You averaged every token" on vit-forward (graded with the grader's
encoder_block standing in). vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:skip:encoder_block:skip-layer_norm',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def encoder_block(x, p, heads):
    """One step of Transformer._apply: x += attention(x, x); x += FeedForward(x)."""
    def feed_forward(x):
        # LayerNormalization(epsilon=1e-6), Dense(hidden_dim, activation=gelu), Dense(dim)
        h = layer_norm(x, p["ln2_g"], p["ln2_b"], eps=1e-6)
        h = gelu(h @ p["W1"] + p["b1"])
        return h @ p["W2"] + p["b2"]

    x = x + self_attention(x, p, heads)
    x = x + feed_forward(x)
    return x


def vit_forward(image, params):
    """SimpleViT: patches -> Transformer -> LayerNormalization -> pool -> Dense(num_classes)."""
    pool = "mean"
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"], eps=1e-6)
    if pool == "mean":
        x = x.mean(axis=0)        # GlobalAveragePooling1D
    elif pool == "max":
        x = x.max(axis=0)         # GlobalMaxPooling1D
    return x @ params["W_head"] + params["b_head"]
