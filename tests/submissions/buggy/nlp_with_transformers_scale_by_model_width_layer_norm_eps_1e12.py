"""Blind round 60 (b60_02, issue 38): layer_norm and self_attention ported from
rickiepark/nlp-with-transformers `03_transformer-anatomy.ipynb` (scaled_dot_product_attention,
AttentionHead, MultiHeadAttention, TransformerEncoderLayer, Embeddings' `nn.LayerNorm(hidden_size,
eps=1e-12)`), with encoder_block and vit_forward ported right (CORRECT: they pass eps=1e-6
explicitly, as the file does). The student's top-level `scaled_dot_product_attention` is nested in
self_attention and `feed_forward` in encoder_block here: the builder replaces only the solution's
own definitions (and the file's `from math import sqrt` is made inside self_attention).

Mistakes:
3. self_attention (line 105 of the file as delivered): `dim_k = x.shape[-1]`, from the notebook's
   single-head demo where the key is the whole embedding, so the scores are scaled by 1/sqrt(d),
   not 1/sqrt(d_h). Wrong only with heads > 1.
4. layer_norm (line 86): the default eps is 1e-12 (the notebook's `nn.LayerNorm(hidden_size,
   eps=1e-12)`) where the API's is 1e-6. Wrong only when layer_norm is called with its default
   eps: large on rows of small spread (`1e-3 * randn`), about 5e-7 relative on ordinary rows.

Grader: at blind time (528b2ec3) and now, 95/110, both named. Mistake 3 on multi-head-attention's
several-heads and random checks ("You scaled by 1/sqrt(d), the model width. ...") and on
no-causal-mask's causal checks ("the scores are divided by sqrt(d), the model width, instead of
sqrt(d_h)"). Mistake 4 on layer-norm's "eps inside the square root" check ("In `layer_norm`, eps
is a value below about 1e-09 ..."; the report quotes the student's `eps=1e-12`). encoder-block and
vit-forward keep full marks; vit-checkpoint observes self_attention. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}
CORRECT = ('encoder_block', 'vit_forward')  # TransformerEncoderLayer and the model, eps passed


def layer_norm(x, gamma, beta, eps=1e-12):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):
    from math import sqrt  # the file's `from math import sqrt, erf`

    def scaled_dot_product_attention(query, key, value, dim_k, mask=None):
        scores = query @ key.T / sqrt(dim_k)
        if mask is not None:
            scores = np.where(mask == 0, -np.inf, scores)
        weights = softmax(scores, axis=-1)
        return weights @ value

    seq_len, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by the number of heads")
    head_dim = embed_dim // heads
    dim_k = x.shape[-1]
    mask = np.tril(np.ones((seq_len, seq_len))) if causal else None

    outputs = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        outputs.append(scaled_dot_product_attention(q, k, v, dim_k, mask))
    x = np.concatenate(outputs, axis=-1)
    return x @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def feed_forward(x, p):
        x = x @ p["W1"] + p["b1"]
        x = gelu(x)
        x = x @ p["W2"] + p["b2"]
        return x

    hidden_state = layer_norm(x, p["ln1_g"], p["ln1_b"], eps=1e-6)
    x = x + self_attention(hidden_state, p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"], eps=1e-6), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"], eps=1e-6)
    return x[0] @ params["W_head"] + params["b_head"]
