"""Blind round 65 (b65_01, issue 38): layer_norm ported from Tencent/ncnn `src/layer/layernorm.cpp`
(LayerNorm::forward_inplace, its two-pass mean and variance loops).

Mistakes:
1. layer_norm (line 131 of the file as delivered): the default `eps=0.001`, ncnn's
   `pd.get(1, 0.001f)`, instead of 1e-6. Wrong on any call that leaves eps out (encoder_block and
   vit_forward included), most on rows of small variance.

Grader: at blind time (0cd43d22) and now, 105/110, named. Mistake 1 on all three of layer-norm's
failed checks ("In `layer_norm`, eps is 0.001; the student API's is 1e-06."); encoder-block and
vit-forward were graded with the grader's layer_norm standing in. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001'}


def layer_norm(x, gamma, beta, eps=0.001):
    """LayerNorm over the last axis, ported from ncnn LayerNorm::forward_inplace (dims == 2 branch).

    ncnn: eps = pd.get(1, 0.001f); x = (x - mean) / sqrt(var + eps) * gamma + beta
    """
    x = np.asarray(x, dtype=float)
    w = x.shape[-1]
    blob = x.reshape(-1, w)            # h rows of width w, like bottom_top_blob.row(i)
    out = np.empty_like(blob)
    for i in range(blob.shape[0]):
        ptr = blob[i]

        # mean and var
        sum_ = 0.0
        for j in range(w):
            sum_ += ptr[j]
        mean = sum_ / w
        sqsum = 0.0
        for j in range(w):
            tmp = ptr[j] - mean
            sqsum += tmp * tmp
        var = sqsum / w
        # the var maybe minus due to accuracy
        # var = sqsum / w - mean * mean

        a = 1.0 / math.sqrt(var + eps)
        b = -mean * a

        out[i] = (ptr * a + b) * gamma + beta
    return out.reshape(x.shape)
