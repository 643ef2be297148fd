"""Property checks: named Python checks a spec can use (`property: NAME`).

A property receives a `PropertyContext` (call the student's functions through the
worker, a seeded rng, the spec's options) and returns a `Verdict`. This is how the
grader grows without touching the plugin: write a function, register it with
`@property_check("name", calls=(the student functions it calls,))`, name it in a spec.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .block_params import ATTENTION_KEYS, BLOCK_KEYS, random_block_params
from .compare import as_array
from .describe import describe
from .digits_lost import digits_lost
from .last_token_probe import last_token_seen
from .property_calls import Answers, PropertyContext, StudentCallFailed, Verdict
from .property_named import NAMED

PROPERTIES: dict[str, Callable[[PropertyContext], Verdict]] = {}
# The student functions each property calls, given the check's options: what its exercise's
# `uses:` must list (validate.py).
PROPERTY_CALLS: dict[str, Callable[[dict], tuple[str, ...]]] = {}
# Of those, the ones a property calls only as the yardstick the function it tests is compared
# with (conv_equals_linear's `linear_patch_embed`): not tested there, so a student's broken one
# (failing its own exercise's checks) is stood in for by the grader's, as any broken helper is
# (dependencies.py; issue 38, item 4: a correct function is not charged for another's mistake).
PROPERTY_AGAINST: dict[str, tuple[str, ...]] = {}


def property_check(name: str, calls, against: tuple[str, ...] = ()):
    """Register a property under `name`; `calls`: the student names it calls, or a function of
    the check's options that gives them; `against`: those of them it calls only to compare the
    tested function with (never graded by it)."""
    def register(fn):
        PROPERTIES[name] = fn
        PROPERTY_CALLS[name] = calls if callable(calls) else (lambda options: tuple(calls))
        PROPERTY_AGAINST[name] = tuple(against)
        return fn
    return register


def close(a, b, rtol=1e-5, atol=1e-6) -> bool:
    a, b = as_array(a), as_array(b)
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray) or a.shape != b.shape:
        return False
    return bool(np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol))


@property_check("conv_equals_linear", calls=("linear_patch_embed", "conv_patch_embed"),
                against=("linear_patch_embed",))
def conv_equals_linear(ctx: PropertyContext) -> Verdict:
    """Practice 7: conv_patch_embed with K = W_e.reshape(P, P, C, d), stride P, equals
    linear_patch_embed. It tests conv_patch_embed (kernel-stride's function): the student's
    linear_patch_embed is its yardstick, and where that one loses points in its own exercise
    the grader's correct one stands in for it (blind round 58's b58_14: a correct convolution
    charged for a linear_patch_embed that flattens each patch channel first)."""
    trials = []
    for trial in range(int(ctx.options.get("trials", 3))):
        # the first trial: RGB, P > 1, so a flatten order shows
        P = int(ctx.rng.choice([1, 2, 3, 4] if trial else [2, 3, 4]))
        H, W = P * int(ctx.rng.integers(1, 5)), P * int(ctx.rng.integers(1, 5))
        C, d = int(ctx.rng.choice([1, 3] if trial else [3])), int(ctx.rng.integers(1, 6))
        image = ctx.rng.standard_normal((H, W, C))
        W_e, b = ctx.rng.standard_normal((P * P * C, d)), ctx.rng.standard_normal(d)
        trials.append((image, W_e, b, P))
    # the tested convolution first: its own stub is "not implemented yet", a stub of its
    # yardstick a failure graded again with the grader's linear_patch_embed standing in
    conv = ctx.student.each("conv_patch_embed", [
        (image, W_e.reshape(P, P, image.shape[2], W_e.shape[1]), b, P)
        for image, W_e, b, P in trials])
    linear = ctx.student.each("linear_patch_embed", trials)
    for i, (image, W_e, _, P) in enumerate(trials):
        (H, W, C), d = image.shape, W_e.shape[1]
        got, expected = conv[i], linear[i]  # read in the order they were called
        array = as_array(got)  # nested lists are an array too
        flattenable = isinstance(array, np.ndarray) and array.size == H * W * d // (P * P)
        conv_flat = array.reshape(-1, d) if flattenable else got
        if not close(conv_flat, expected):
            return Verdict(False, f"with image {H}x{W}x{C}, P={P}, d={d}: conv_patch_embed(image, "
                                  f"W_e.reshape({P}, {P}, {C}, {d}), b, {P}).reshape(-1, {d}) "
                                  f"differs from linear_patch_embed(image, W_e, b, {P})",
                           hint="the patch linear map is a convolution with kernel P and stride P: "
                                "both must read a patch in (p1, p2, c) order")
    return Verdict(True)


# --- helpers for properties that call the student on random inputs -------------------------------

def _random_attention(ctx: PropertyContext, tokens=(3, 8), head_counts=(1, 2, 4), head_dim=(2, 4)):
    """(x (T, d), p, heads) with random weights, as the student API's self_attention takes them."""
    heads = int(ctx.rng.choice(head_counts))
    d = heads * int(ctx.rng.integers(head_dim[0], head_dim[1] + 1))
    T = int(ctx.rng.integers(tokens[0], tokens[1] + 1))
    keys = BLOCK_KEYS if ctx.options.get("function") == "encoder_block" else ATTENTION_KEYS
    return ctx.rng.standard_normal((T, d)), random_block_params(ctx.rng, d, 2 * d, keys), heads


def _shape_problem(value, shape, call: str) -> Verdict | None:
    """A failed Verdict when `value` is not a numeric array of `shape` (nothing can be judged)."""
    array = as_array(value)
    if (isinstance(array, np.ndarray) and array.shape == tuple(shape)
            and np.isfinite(array.astype(np.float64)).all()):
        return None
    name = call.split("(", 1)[0].split(" ", 1)[0]
    return Verdict(False, f"{call} returned {describe(value)}; "
                          f"expected a finite array of shape {tuple(shape)}",
                   hint=f"Your `{name}` returned no finite array of the shape it should here, so "
                        "this property could not be judged: the checks of its own exercise say "
                        "what to fix.", judged=False)


def _derangement(rng, n):  # a permutation of range(n) that moves at least one index (n >= 2)
    while True:
        perm = rng.permutation(n)
        if (perm != np.arange(n)).any():
            return perm


@property_check("attention_permutation_equivariant", calls=("self_attention",))
def attention_permutation_equivariant(ctx: PropertyContext) -> Verdict:
    """Practice 2: without positions, self_attention(x[perm]) == self_attention(x)[perm], any perm.

    Attention on its own does not know where a token sits: reordering the tokens only
    reorders the output. A self_attention that fails this has something position-dependent
    in it (most often GPT's causal mask).
    """
    trials = []
    for _ in range(int(ctx.options.get("trials", 3))):
        x, p, heads = _random_attention(ctx)
        trials.append((x, p, heads, _derangement(ctx.rng, len(x))))
    answers = ctx.student.each("self_attention", [
        call for x, p, heads, perm in trials for call in ((x, p, heads), (x[perm], p, heads))])
    for i, (x, _, heads, perm) in enumerate(trials):
        out = answers[2 * i]
        problem = _shape_problem(out, x.shape, f"self_attention(x {x.shape}, p, {heads})")
        if problem:
            return problem
        moved = answers[2 * i + 1]
        if not close(moved, np.asarray(out)[perm], rtol=1e-4, atol=1e-5):
            message = (f"with x of shape {x.shape} and heads={heads}, reordering the rows of x "
                       f"as {perm.tolist()} changed the output by more than a reordering: "
                       "self_attention(x[perm], p, heads) != self_attention(x, p, heads)[perm]")
            calls = [c for x, p, heads, perm in trials
                     for c in ((x, p, heads), (x[perm], p, heads))]

            def equivariant(got: Answers) -> bool:
                return all(close(got[2 * j + 1], np.asarray(got[2 * j])[t[3]], rtol=1e-4,
                                 atol=1e-5) for j, t in enumerate(trials))

            return _causal_by_default(ctx, "self_attention", calls, answers, message,
                                      equivariant) or Verdict(
                False, message, misconception="attention_not_equivariant")
    return Verdict(True)


def _causal_by_default(ctx: PropertyContext, function: str, calls: list[tuple], answers: Answers,
                       message: str, holds: Callable[[Answers], bool]) -> Verdict | None:
    """The cause named when it is checked on every call: each call that leaves `causal` out
    returns what it returns with causal=True, and with causal=False passed the property holds
    (`causal=True` as the default in the signature, as a GPT port's always-causal attention
    has). None otherwise,
    or for a function that takes no `causal`."""
    if function != "self_attention":
        return None
    try:
        masked = ctx.student.each(function, calls, [{"causal": True}] * len(calls))
        unmasked = ctx.student.each(function, calls, [{"causal": False}] * len(calls))
        if not (all(close(masked[i], answers[i], rtol=1e-9, atol=1e-12) for i in
                    range(len(calls))) and holds(unmasked)):
            return None
    except StudentCallFailed:
        return None
    return Verdict(False, message, hint=NAMED["causal_default_true"],
                   misconception="causal_default_true", spec_hint=False, named=True)




def _shuffle_tiles(image, P, perm):  # the image with its P x P tiles moved: tile perm[i] to slot i
    H, W = image.shape[:2]
    tiles = image.reshape(H // P, P, W // P, P, -1).transpose(0, 2, 1, 3, 4)
    tiles = tiles.reshape(-1, P, P, image.shape[-1])
    tiles = tiles[perm].reshape(H // P, W // P, P, P, -1).transpose(0, 2, 1, 3, 4)
    return tiles.reshape(image.shape)


def _same_rows_in_any_order(a, b, rtol=1e-4, atol=1e-6) -> bool:
    """True when the rows of b are the rows of a, reordered (a bag of the same rows)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    unused = list(range(len(a)))
    for row in b:
        match = next((i for i in unused if np.allclose(row, a[i], rtol=rtol, atol=atol)), None)
        if match is None:
            return False
        unused.remove(match)
    return True


@property_check("positions_break_permutation", calls=("embed_image", "self_attention"))
def positions_break_permutation(ctx: PropertyContext) -> Verdict:
    """Practice 2: after embed_image (with positions), moving the tiles changes more than the order.

    Cuts a random image into its tiles, moves them (a random permutation), and runs the
    student's embed_image and then their self_attention on both images. With positions the
    outputs differ; without, the second is only the first reordered: a bag of tiles.
    """
    trials = []
    for _ in range(int(ctx.options.get("trials", 2))):
        P = int(ctx.rng.choice([1, 2, 3]))
        rows, cols = int(ctx.rng.integers(1, 4)), int(ctx.rng.integers(2, 4))
        C, heads = int(ctx.rng.choice([1, 3])), int(ctx.rng.choice([1, 2]))
        d = heads * int(ctx.rng.integers(2, 4))
        N = rows * cols
        image = ctx.rng.standard_normal((rows * P, cols * P, C))
        params = {"P": P, "W_e": ctx.rng.standard_normal((P * P * C, d)),
                  "b_e": ctx.rng.standard_normal(d), "cls": ctx.rng.standard_normal(d),
                  "pos": ctx.rng.standard_normal((N + 1, d))}
        moved = _shuffle_tiles(image, P, _derangement(ctx.rng, N))
        _, p, _ = _random_attention(ctx, head_counts=(heads,), head_dim=(d // heads, d // heads))
        where = f"an image of {rows * P}x{cols * P}x{C} with P={P} (d={d})"
        trials.append((image, moved, params, p, heads, (N + 1, d), where))
    # embed_image of every image and its moved one, in one request; then, in one more,
    # self_attention of what they gave, for the trials up to the first that failed there
    embedded = ctx.student.each("embed_image", [
        (picture, params) for image, moved, params, *_ in trials for picture in (image, moved)])
    stopped = None  # (trial, its Verdict or StudentCallFailed): where embed_image failed
    for i, trial in enumerate(trials):
        try:
            found = _tiles_only_reordered(embedded, i, *trial[-2:])
        except StudentCallFailed as failed:
            found = failed
        if found is not None:
            stopped = (i, found)
            break
    reached = trials[: stopped[0]] if stopped else trials
    attention = ctx.student.each("self_attention", [
        (np.asarray(embedded[2 * i + k]), p, heads)
        for i, (_, _, _, p, heads, _, _) in enumerate(reached) for k in (0, 1)])
    for i, (_, _, _, _, heads, shape, where) in enumerate(reached):
        out = [attention[2 * i], attention[2 * i + 1]]
        for value in out:
            problem = _shape_problem(value, shape, f"self_attention on {where}")
            if problem:
                return problem
        if _same_rows_in_any_order(*out):  # embed_image told the two apart (it was judged
            # first): not a bag of tiles there; what it added is lost in self_attention
            return Verdict(False, f"on {where}, moving the tiles around only reordered the rows of "
                                  f"self_attention(embed_image(image, params), p, {heads}), though "
                                  "embed_image's outputs for the two images differ by more than "
                                  "a reordering",
                           hint="Your `embed_image` tells where a tile was (moving the tiles "
                                "changes its output by more than a reordering of its rows), but "
                                "your `self_attention` of its two outputs gives the same rows in "
                                "another order: what tells the tiles apart is lost in "
                                "`self_attention`: look there, step by step.",
                           misconception="positions_lost_in_attention", spec_hint=False)
    if stopped and isinstance(stopped[1], StudentCallFailed):
        raise stopped[1]
    return stopped[1] if stopped else Verdict(True)


def _tiles_only_reordered(embedded: Answers, trial: int, shape, where) -> Verdict | None:
    """The verdict on embed_image's outputs for trial `trial`'s image and its moved tiles (read
    in the order they were called), None when they tell the two apart."""
    tokens = []
    for index in (2 * trial, 2 * trial + 1):
        tokens.append(embedded[index])
        problem = _shape_problem(tokens[-1], shape, f"embed_image on {where}")
        if problem:
            return problem
    if _same_rows_in_any_order(*tokens):
        return Verdict(False, f"on {where}, moving the tiles around only reordered the rows of "
                              "embed_image's output: nothing tells the transformer where a tile "
                              "was", misconception="bag_of_tiles")
    return None


def _attention_function(options: dict) -> tuple[str, ...]:
    return (options.get("function", "self_attention"),)


@property_check("no_causal_mask_by_default", calls=_attention_function)
def no_causal_mask_by_default(ctx: PropertyContext) -> Verdict:
    """Practice 6: changing the last token changes the first token's output (no causal mask).

    Option `function`: `self_attention` (default) or `encoder_block`; both are called without
    the `causal` keyword, as a classifier ViT calls them.
    """
    function = ctx.options.get("function", "self_attention")
    trials = []
    for _ in range(int(ctx.options.get("trials", 3))):
        x, p, heads = _random_attention(ctx)
        changed = x.copy()
        changed[-1] = ctx.rng.standard_normal(x.shape[1]) * 3
        trials.append((x, changed, p, heads))
    answers = ctx.student.each(function, [
        call for x, changed, p, heads in trials for call in ((x, p, heads), (changed, p, heads))])
    for i, (x, _, _, heads) in enumerate(trials):
        out = answers[2 * i]
        problem = _shape_problem(out, x.shape, f"{function}(x {x.shape}, p, {heads})")
        if problem:
            return problem
        out_changed = answers[2 * i + 1]
        problem = _shape_problem(out_changed, x.shape, f"{function}(x {x.shape}, p, {heads})")
        if problem:
            return problem
        if close(np.asarray(out_changed)[0], np.asarray(out)[0], rtol=1e-6, atol=1e-9):
            observed = (f"with x of shape {x.shape} and heads={heads}, changing the last token "
                        f"x[-1] left the first token's output {function}(x, p, heads)[0] "
                        "unchanged")
            message = observed + ": token 0 cannot see the last token"
            calls = [c for x, changed, p, heads in trials for c in ((x, p, heads),
                                                                     (changed, p, heads))]
            hidden = close(np.asarray(out_changed)[:-1], np.asarray(out)[:-1], rtol=1e-6,
                           atol=1e-9)  # no token before the last one sees it
            return _causal_by_default(ctx, function, calls, answers, message, lambda got: not any(
                close(np.asarray(got[2 * j + 1])[0], np.asarray(got[2 * j])[0], rtol=1e-6,
                      atol=1e-9) for j in range(len(trials)))) or last_token_seen(
                ctx, function, trials, answers, lambda a, b: close(a, b, rtol=1e-6, atol=1e-9),
                observed, i) or (hidden and _first_unseen(ctx, function, trials[i], out, message)) \
                or Verdict(False, message, misconception="gpt_causal_mask" if hidden else None)
    return Verdict(True)


def _first_unseen(ctx: PropertyContext, function: str, trial: tuple, out,
                  message: str) -> Verdict | None:
    """Where no token sees the last one, whether they see the first: a causal mask lets every
    token see token 0. Where changing x[0] changes no other row either, the tokens see neither
    end of the sequence: no causal mask, and the spec's words about one would be untrue."""
    x, _, p, heads = trial
    first = x.copy()
    first[0] = ctx.rng.standard_normal(x.shape[1]) * 3
    try:
        got = ctx.student.each(function, [(first, p, heads)])[0]
    except StudentCallFailed:
        return None
    if _shape_problem(got, x.shape, "") or not close(np.asarray(got)[1:], np.asarray(out)[1:],
                                                      rtol=1e-6, atol=1e-9):
        return None
    return Verdict(False, message + "; changing the first token x[0] left every other row "
                   "unchanged too", hint=(
                       f"Token 0 cannot see the last token, yet this is no causal mask (with GPT's "
                       f"mask every token still sees token 0): changing the first token x[0] or the"
                       f" last x[-1] left every other row of `{function}`'s output unchanged, as if"
                       f" each token attended only to itself. Each head's scores must be a T x T "
                       f"matrix, every token (query) against every token (key), with the softmax "
                       f"over the keys: the checks of multi-head-attention say more."),
                   spec_hint=False)


@property_check("softmax_sums_to_one", calls=("softmax",))
def softmax_sums_to_one(ctx: PropertyContext) -> Verdict:
    """Section 3 step 5: softmax(x, axis) is in [0, 1] and sums to 1 along `axis`, for any axis."""
    trials = []
    for _ in range(int(ctx.options.get("trials", 4))):
        shape = tuple(int(ctx.rng.integers(2, 6)) for _ in range(int(ctx.rng.integers(1, 4))))
        axis = int(ctx.rng.integers(-len(shape), len(shape)))
        trials.append((ctx.rng.standard_normal(shape) * 4, axis))
    answers = ctx.student.each("softmax", [(x,) for x, _ in trials],
                               [{"axis": axis} for _, axis in trials])
    for i, (x, axis) in enumerate(trials):
        shape, got = x.shape, answers[i]
        problem = _shape_problem(got, shape, f"softmax(x {shape}, axis={axis})")
        if problem:
            return problem
        got = np.asarray(got, dtype=np.float64)
        sums = got.sum(axis=axis)
        in_range = got.min() >= -1e-9 and got.max() <= 1 + 1e-9
        if not (in_range and np.allclose(sums, 1.0, rtol=0, atol=1e-5)):
            worst = float(np.abs(sums - 1).max())
            others = [a for a in range(len(shape)) if a != axis % len(shape)]
            wrong_axis = any(np.allclose(got.sum(axis=a), 1.0, rtol=0, atol=1e-5) for a in others)
            return Verdict(False, f"softmax(x {shape}, axis={axis}): the values along axis {axis} "
                                  f"should be in [0, 1] and sum to 1; the sums are off by up to "
                                  f"{worst:.3g}",
                           misconception="softmax_wrong_axis" if wrong_axis else None)
    return Verdict(True)


def _as_count(value) -> int | None:
    """`value` as an int when it is a whole number (int, numpy integer or float), else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        return None
    return int(value) if float(value).is_integer() else None


@property_check("cost_ratio", calls=("num_tokens", "attention_scores"))
def cost_ratio(ctx: PropertyContext) -> Verdict:
    """Section 4 step 5: halving P roughly multiplies the attention cost by 16 (the N**2 map).

    With the student's own num_tokens and attention_scores ([CLS] included): options `size`
    (default 224), `small` and `large` patch sizes (default 8 and 16).
    """
    defaults = (("size", 224), ("small", 8), ("large", 16))
    size, small, large = (int(ctx.options.get(k, v)) for k, v in defaults)
    want = {P: ((size // P) ** 2 + 1, ((size // P) ** 2 + 1) ** 2) for P in (small, large)}
    tokens = ctx.student.each("num_tokens", [(size, size, P) for P in (small, large)])
    sendable = {}  # the student's values go back to the worker only as plain ints
    for i, P in enumerate((small, large)):
        count = _as_count(tokens.returned(i))
        sendable[P] = want[P][0] if count is None or abs(count) > 10**9 else count
    scores = ctx.student.each("attention_scores", [(sendable[P],) for P in (small, large)])
    counts = {}
    for i, P in enumerate((small, large)):  # read in the order they would be called one by one
        counts[P] = (tokens[i], scores[i])
    if all(_as_count(counts[P][i]) == want[P][i] for P in want for i in (0, 1)):
        return Verdict(True)
    outputs = (("num_tokens", all(_as_count(counts[P][0]) == want[P][0] for P in want)),  # T**2
               ("attention_scores", all(_as_count(counts[P][1]) == sendable[P] ** 2 for P in want)))
    ratio = want[small][1] / want[large][1]
    lines = [f"P={P}: num_tokens({size}, {size}, {P}) = {describe(counts[P][0])}, "
             f"attention_scores of that = {describe(counts[P][1])} "
             f"(expected {want[P][0]} tokens, {want[P][1]} scores)"
             for P in (small, large)]
    lines.append(f"so P={small} should cost {want[small][1]} / {want[large][1]} = {ratio:.2f} "
                 f"times as many scores as P={large}")
    linear = all(_as_count(counts[P][0]) is not None  # T scores for T tokens
                 and _as_count(counts[P][1]) == _as_count(counts[P][0]) for P in (small, large))
    return Verdict(False, "\n".join(lines), misconception="scores_linear" if linear else None,
                   outputs=outputs)  # each function's values here: of the T it was given


@property_check("layer_norm_shift_invariant", calls=("layer_norm",))
def layer_norm_shift_invariant(ctx: PropertyContext) -> Verdict:
    """Section 3 step 5: LayerNorm subtracts the mean: adding a constant to a token changes
    nothing."""
    trials = []
    for _ in range(int(ctx.options.get("trials", 3))):
        T, d = int(ctx.rng.integers(1, 6)), int(ctx.rng.integers(2, 9))
        x = ctx.rng.standard_normal((T, d))
        gamma, beta = ctx.rng.standard_normal(d), ctx.rng.standard_normal(d)
        trials.append((x, gamma, beta, float(ctx.rng.uniform(-5, 5))))
    x, gamma, beta, _ = trials[-1]
    trials.append((x, gamma, beta, FAR))  # far from zero: what a one-pass variance loses
    answers = ctx.student.each("layer_norm", [
        call for x, gamma, beta, shift in trials
        for call in ((x, gamma, beta), (x + shift, gamma, beta))])
    for i, (x, _, _, shift) in enumerate(trials):
        (T, d), plain, shifted = x.shape, answers[2 * i], answers[2 * i + 1]
        if shift == FAR and getattr(as_array(plain), "dtype", None) != np.float64:
            continue  # float32 code has no digits to spare there: judged in float64 only
        if not close(shifted, plain, rtol=1e-4, atol=1e-5):
            said = (f"layer_norm(x + {shift:.3g}, gamma, beta) differs from "
                    f"layer_norm(x, gamma, beta) for x of shape {(T, d)}")
            # near zero the mean was not subtracted; far from it, digits were lost: a
            # variance taken in one pass only if it gives the student's values on every call
            if shift != FAR:
                return Verdict(False, said, misconception="mean_not_subtracted")
            return digits_lost(said, trials, answers)
    return Verdict(True)


FAR = 1e7  # a constant far from zero, next to tokens of spread 1
