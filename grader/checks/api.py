"""The student API as data: each function's required parameters, the names of the known-wrong
variants (misconceptions) a spec may name, the functions each is built on as the lecture builds
them (docs/student-api.md; a course function's: its declaration's `built_on:`).

The shipped API is the constants below; an exercises folder adds the course's own functions
(course.py). Everything asks `student_api(folder)` for the two together. Validation and messages
read this data instead of importing the reference, so they work in the student bundle (which has
no reference: it is the lab's solution) and cost no import. tests/test_compiled.py keeps the
shipped data equal to `grader.reference.REFERENCE` and `MISCONCEPTIONS`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.spec.errors import SpecError

# function name -> its parameters without a default, in order (for patchify(image=..., P=2))
SIGNATURES: dict[str, tuple[str, ...]] = {
    "num_patches": ("H", "W", "P"),
    "num_tokens": ("H", "W", "P"),
    "patch_dim": ("P",),
    "attention_scores": ("num_tokens",),
    "patchify": ("image", "P"),
    "linear_patch_embed": ("image", "W_e", "b_e", "P"),
    "conv_patch_embed": ("image", "K", "b", "stride"),
    "conv_equivalent": ("P",),
    "embed_image": ("image", "params"),
    "softmax": ("x",),
    "layer_norm": ("x", "gamma", "beta"),
    "self_attention": ("x", "p", "heads"),
    "encoder_block": ("x", "p", "heads"),
    "vit_forward": ("image", "params"),
}

# function name -> the defaults of its parameters that have one, in order (the reference's):
# a stand-in passes on what a caller sets them to (self_attention(..., causal=True))
OPTIONS: dict[str, tuple] = {
    "num_tokens": (True,),
    "patch_dim": (3,),
    "softmax": (-1,),
    "layer_norm": (1e-6,),
    "self_attention": (False,),
}

MISCONCEPTION_NAMES: frozenset[str] = frozenset((
    "attention_causal", "attention_causal_diagonal", "attention_causal_ignored",
    "attention_heads_bare_reshape", "attention_heads_interleaved", "attention_key_transposed",
    "attention_mask_transposed", "attention_no_output_projection", "attention_no_scale",
    "attention_one_head", "attention_query_transposed", "attention_scale_d",
    "attention_softmax_wrong_axis", "ceiling_count", "channels_forgotten", "cls_always",
    "cls_forgotten", "conv_bias_forgotten", "conv_equivalent_stride_one",
    "conv_kernel_flipped", "conv_last_window_dropped", "conv_stride_ignored",
    "embed_bias_forgotten", "embed_cls_appended", "embed_cls_bias", "embed_cls_forgotten",
    "embed_positions_before_cls", "embed_positions_forgotten", "encoder_causal",
    "encoder_no_attention_residual", "encoder_no_mlp_residual", "encoder_post_ln",
    "encoder_relu", "floor_division_count", "layer_norm_affine_swapped",
    "layer_norm_divides_by_variance", "layer_norm_eps_outside", "layer_norm_no_affine",
    "layer_norm_one_pass_variance", "layer_norm_unbiased", "layer_norm_wrong_axis",
    "linear_embed_bare_reshape",
    "linear_embed_bias_forgotten", "linear_embed_channel_first",
    "linear_embed_grid_transposed", "linear_embed_patch_transposed",
    "overlapping_windows_count", "patchify_bare_reshape", "patchify_channel_first",
    "patchify_floor_crop", "patchify_grid_transposed", "patchify_patch_transposed",
    "pixels_over_patch_area", "scores_linear", "softmax_without_keepdims",
    "softmax_without_max", "softmax_wrong_axis", "tokens_ceiling", "tokens_floor_division",
    "vit_causal", "vit_cls_appended", "vit_final_ln_skipped", "vit_last_row", "vit_mean_pool",
    "vit_mean_pool_all_tokens", "vit_no_attention_residual", "vit_no_mlp_residual",
    "vit_positions_forgotten", "vit_post_ln"
))


BUILT_ON: dict[str, tuple[str, ...]] = {
    "num_tokens": ("num_patches",),
    # the lecture's two ways: patches times W_e, or the convolution with stride P (Lab 4)
    "linear_patch_embed": ("patchify", "conv_patch_embed"),
    # the lecture counts the N + 1 rows of `pos` from the patches (num_tokens, section 3 step 4)
    "embed_image": ("linear_patch_embed", "patchify", "num_tokens", "num_patches"),
    "self_attention": ("softmax",),
    "encoder_block": ("layer_norm", "self_attention", "softmax"),
    "vit_forward": ("embed_image", "linear_patch_embed", "patchify", "num_tokens", "num_patches",
                    "encoder_block", "self_attention", "softmax", "layer_norm"),
}


@dataclass(frozen=True)
class StudentApi:
    """The functions a submission defines, with what validation and messages need of them."""
    signatures: dict[str, tuple[str, ...]]
    # the misconceptions a spec may name; None: not known here (the course's reference files are
    # not in this folder: the student bundle, whose specs the instructor validated)
    misconceptions: frozenset[str] | None
    built_on: dict[str, tuple[str, ...]]

    def params(self, name: str) -> tuple[str, ...]:
        """The parameters `name` needs, () for a name outside the student API."""
        return self.signatures.get(name, ())

    def options(self, name: str) -> tuple:
        """The defaults of `name`'s parameters after those it needs (a course function: none)."""
        return OPTIONS.get(name, ()) if name in SIGNATURES else ()


SHIPPED = StudentApi(SIGNATURES, MISCONCEPTION_NAMES, BUILT_ON)


def student_api(folder: str | Path | None = None) -> StudentApi:
    """The shipped API plus the functions the exercises folder `folder` declares (course.py)."""
    from . import course

    declared = course.declarations(folder)
    if not declared:
        return SHIPPED
    try:
        reference = course.course_reference(folder)
    except SpecError:  # `vitgrade validate` says why; meanwhile no name is refused for it
        reference = None
    return StudentApi(
        {**SIGNATURES, **{n: d.params for n, d in declared.items() if n not in SIGNATURES}},
        None if reference is None else MISCONCEPTION_NAMES | set(reference.misconceptions),
        {**BUILT_ON, **{n: built_on(n, declared) for n in declared if n not in SIGNATURES}})


def built_on(name: str, declared: dict) -> tuple[str, ...]:
    """Everything the course function `name` is built on, its helpers' helpers too, as
    BUILT_ON lists them (vit_forward: softmax as well); a cycle stops where it closes."""
    found: list[str] = []
    todo = list(declared[name].built_on)
    while todo:
        helper = todo.pop(0)
        if helper != name and helper not in found:
            found.append(helper)
            todo += (BUILT_ON.get(helper, ()) if helper in SIGNATURES
                     else getattr(declared.get(helper), "built_on", ()))
    return tuple(found)
