"""What the class report calls things, taken from the specs: each check's student-API function
and each misconception's human title.

    functions: {exercise id: {check name: "patchify" | 'ANSWERS["positions"]'}}
    titles:    {exercise id: {misconception: "causal mask by default"}}

A misconception is named by its spec's `title:`, else by MISTAKE_TITLES, else by the first
clause of its hint (`Labels.title`). grade-all keeps the labels in OUT/batch.json, so that
`vitgrade merge`, which has no specs, names everything as a single run does.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from grader.checks.describe import REFUSED_WITH_ASSERT, REFUSED_WITH_OTHER_TYPE, short_title
from grader.checks.kinds.generalisations import TITLES as GENERALISATION_TITLES
from grader.checks.kinds.in_place import TITLES as IN_PLACE_TITLES
from grader.checks.kinds.randomness import TITLES as RANDOM_TITLES
from grader.checks.kinds.refusal_observations import TITLES as REFUSAL_TITLES
from grader.checks.kinds.relaid import TITLES as LAYOUT_TITLES
from grader.checks.kinds.returned_items import TITLES as RETURNED_TITLES
from grader.checks.kinds.signatures import TITLES as SIGNATURE_TITLES
from grader.checks.kinds.value_observations import TITLES as OBSERVATION_TITLES

from .fixed_size import TITLES as FIXED_SIZE_TITLES

# the misconceptions property checks (checks/properties.py) find, and the generalisations a
# function's code misses (checks/kinds/mistakes.py)
MISTAKE_TITLES = {"gpt_causal_mask": "causal mask by default",
                  "causal_default_true": "causal=True by default",
                  "attention_not_equivariant": "attention depends on the tokens' order",
                  "bag_of_tiles": "no positions: a bag of tiles",
                  "positions_lost_in_attention": "positions added, lost in self_attention",
                  "mean_not_subtracted": "mean not subtracted",
                  REFUSED_WITH_ASSERT: "an assert where an exception is asked for",
                  REFUSED_WITH_OTHER_TYPE: "another exception than the one asked for",
                  **GENERALISATION_TITLES,
                  **OBSERVATION_TITLES, **REFUSAL_TITLES, **SIGNATURE_TITLES,
                  **RANDOM_TITLES, **IN_PLACE_TITLES, **RETURNED_TITLES, **FIXED_SIZE_TITLES,
                  **LAYOUT_TITLES}


@dataclass(frozen=True)
class Labels:
    functions: dict = field(default_factory=dict)
    titles: dict = field(default_factory=dict)

    def function(self, exercise: str, check: str) -> str:
        """The function a check calls ("" when the specs did not say)."""
        return self.functions.get(exercise, {}).get(check, "")

    def title(self, exercise: str, misconception: str, hint: str) -> str:
        named = self.titles.get(exercise, {}).get(misconception) or self.spec_title(misconception)
        return named or MISTAKE_TITLES.get(misconception) or short_title(hint) or misconception

    def spec_title(self, misconception: str) -> str | None:
        """The title a spec gave this misconception, in any exercise (None: no spec lists it,
        it comes from a property check or a generalisation)."""
        return next((t[misconception] for t in self.titles.values() if misconception in t), None)

    def to_json(self) -> dict:
        return {"functions": self.functions, "titles": self.titles}

    @classmethod
    def from_json(cls, data) -> Labels:
        """Labels from batch.json; anything malformed is left out (the report then falls back)."""
        if not isinstance(data, dict):
            return cls()
        return cls(_nested_strings(data.get("functions")), _nested_strings(data.get("titles")))


def labels_from_specs(exercises) -> Labels:
    """`exercises`: loaded grader.spec.model.Exercise objects."""
    functions: dict[str, dict[str, str]] = {}
    titles: dict[str, dict[str, str]] = {}
    for exercise in exercises:
        calls, named = functions.setdefault(exercise.id, {}), titles.setdefault(exercise.id, {})
        for check in exercise.checks:
            if check.subject:
                calls[check.name] = check.subject
            for name, title in check.misconception_titles().items():
                named.setdefault(name, title)
    return Labels(functions, titles)


def _nested_strings(data) -> dict:
    if not isinstance(data, dict):
        return {}
    return {str(k): {str(a): str(b) for a, b in v.items() if isinstance(b, str)}
            for k, v in data.items() if isinstance(v, dict)}
