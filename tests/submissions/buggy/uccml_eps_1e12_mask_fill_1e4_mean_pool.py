"""Blind round 81 (b81_10, issue 38): layer_norm, self_attention and vit_forward ported from
uccelliy/UccML `UccDL/transformer/layernorm.py`. The writer's key listed mistakes 1 and 3; the
judge found mistake 2, true of the code.

Mistakes:
1. layer_norm (line 77 of the file as delivered): the source's default `eps=1e-12` instead of
   1e-6 (the formula is right): visible on near-constant rows; an explicit eps= is right.
2. self_attention (line 96): the causal mask fills the hidden scores with -10000.0, not -inf:
   scores of size ~10000 (inputs far from zero) leak through the mask; right on inputs of
   ordinary size, and with causal=False.
3. vit_forward (line 122): `x.mean(axis=0)`, the mean over all tokens instead of the [CLS] row:
   wrong on every image.

Grader: at blind time (b5c841e9) and now, 95/110. Mistake 1 named on layer-norm ("In `layer_norm`, eps is a value
below about 1e-09"); mistake 2 named on no-causal-mask ("the hidden scores are set to -10000 ...
Hide them with -np.inf, or -1e9."); mistake 3 named on vit-forward ("You averaged every token ...
reads the [CLS] row only"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'no-causal-mask': 'op:shallow_fill:self_attention/attention:minus-inf-as-fill-1e4',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1e-12):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(std ** 2 + eps) + beta


def self_attention(x, p, heads, causal=False):
    n, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model % n_head != 0")
    d_tensor = d_model // heads
    q = x @ p['Wq'] + p['bq']
    k = x @ p['Wk'] + p['bk']
    v = x @ p['Wv'] + p['bv']
    # split tensor by number of heads
    q, k, v = [t.reshape(n, heads, d_tensor).transpose(1, 0, 2) for t in (q, k, v)]
    score = q @ k.transpose(0, 2, 1) / math.sqrt(d_tensor)
    if causal:
        mask = np.tril(np.ones((n, n)))
        score = np.where(mask == 0, -10000.0, score)
    score = softmax(score, axis=-1)
    out = (score @ v).transpose(1, 0, 2).reshape(n, d_model)
    return out @ p['Wo'] + p['bo']


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params['blocks']:
        x = encoder_block(x, blk, params['heads'])
    x = layer_norm(x, params['ln_g'], params['ln_b'])
    x = x.mean(axis=0)
    return x @ params['W_head'] + params['b_head']
