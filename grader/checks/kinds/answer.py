"""A multiple-choice check (`answer:`): the option the student's `ANSWERS[key]` names, judged
against the spec's `correct:`, or, in the student bundle, against the sealed key compiled for it
(answer_key.py). Never graded again around helpers: it calls no function.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.spec.errors import SpecError

from ..answer_key import SEALED, AnswerKey, normalise, plain_key, seal, sealed_key
from ..cases import NotCompiled
from ..describe import describe
from ..results import (
    FAILED,
    MISSING,
    NOT_IMPLEMENTED,
    PASSED,
    CheckResult,
    check_result,
)
from .base import Kind

ANSWERS = "ANSWERS"  # the student's dict of question key -> option
# How a right intention is written so that no option is read: each is a named mistake, its
# sentence filled from what the student wrote (a fact of their ANSWERS, never a guess)
SPELT, PHRASE, MISPLACED = ("answer_spelt_unlike_option", "answer_phrase_not_key",
                            "answer_under_misspelt_key")
SLIP_TITLES = {SPELT: "an option spelt another way", PHRASE: "an option's words, not its key",
               MISPLACED: "the answer under a misspelt key"}


@dataclass(frozen=True)
class AnswerCheck(Kind):
    """`answer:`: a multiple-choice question, judged by its key (plain, or sealed in the bundle)."""
    KEY = "answer"
    key: str = ""                    # the question's key in ANSWERS
    correct: str = ""                # SEALED in the student bundle
    options: dict = field(default_factory=dict)  # option -> the feedback of a student who picks it

    @classmethod
    def from_yaml(cls, raw: dict, common: dict) -> AnswerCheck:
        answer = raw["answer"]
        return cls(**common, key=answer["key"], correct=answer["correct"],
                   options=dict(answer["options"]))

    def problems(self, exercise, build_inputs: bool = False) -> list[SpecError]:
        # SEALED: the student bundle's, whose right answer is in its compiled data only
        if self.correct in self.options or self.correct == SEALED:
            return []
        return [SpecError(exercise.path, self.line_of("answer", "correct"),
                          f"the correct answer '{self.correct}' is not among the options")]

    def names_read(self) -> tuple[str, ...]:
        return (ANSWERS,)

    @property
    def subject(self) -> str:
        return f'{ANSWERS}["{self.key}"]'

    def misconception_titles(self) -> dict[str, str]:
        """'answered "speed"': the wrong option (its feedback's first words state the rule)."""
        return {**{f"{self.key}:{option}": f'answered "{option}"'
                   for option in self.options if option != self.correct}, **SLIP_TITLES}

    def sealed(self, raw: dict) -> tuple[dict, object]:
        """Its YAML with the right answer and the feedback SEALED, and (correct, options) for
        the compiled data's sealed key."""
        sealed = dict(key=self.key, correct=SEALED, options=dict.fromkeys(self.options, SEALED))
        return {**raw, "answer": sealed}, (self.correct, dict(self.options))

    def compiled(self, exercise, plans, secret=None) -> dict:
        return {"answers": seal(*secret)} if secret else {}

    def answer_key(self, exercise, plans) -> AnswerKey:
        """The spec's words, or the sealed key compiled for it."""
        if self.correct != SEALED:
            return plain_key(self.correct, self.options)
        entry, why = plans.lookup(exercise, "answers", self.name)
        try:
            return sealed_key(entry)
        except ValueError:
            raise NotCompiled(f"the answer key of this question is not in this grader's "
                              f"compiled data ({why}): get the current bundle from your "
                              "instructor") from None

    def grade(self, exercise, worker, plans) -> CheckResult:
        key = self.answer_key(exercise, plans)
        outcome = worker.get(ANSWERS)
        if outcome.status == "missing":
            return check_result(self, MISSING, f"`{ANSWERS}` is not defined yet")
        if outcome.status != "ok":
            return check_result(self, FAILED, f"`{ANSWERS}` could not be read: "
                                              f"{outcome.message or outcome.status}")
        if not isinstance(outcome.value, dict):
            return check_result(self, FAILED, f"`{ANSWERS}` must be a dict of question key -> "
                                              f"option, got {describe(outcome.value)}")
        options = ", ".join(f"'{o}'" for o in self.options)
        asked = f"{ANSWERS}['{self.key}']"
        raw = outcome.value.get(self.key)
        if raw is None:
            near = _near_key(self.key, outcome.value)
            return check_result(self, NOT_IMPLEMENTED,
                                f"{asked} is not answered yet (options: {options})",
                                hint=near or None, misconception=MISPLACED if near else None)
        if not isinstance(raw, str):
            return check_result(self, FAILED, f"{asked} must be one of {options}, "
                                              f"got {describe(raw)}")
        answer = normalise(raw)
        verdict = key.verdict(answer)
        if verdict:
            return check_result(self, PASSED, cases=1)
        if verdict is None:
            slip, hint = _unread_option(raw, self.options)
            return check_result(self, FAILED, f"{asked} = {raw!r} is not one of the options "
                                              f"{options}", cases=1, hint=hint or None,
                                misconception=slip)
        return check_result(self, FAILED, f"{asked} = {raw!r} is not the best answer",
                            hint=key.feedback(answer), cases=1,
                            misconception=f"{self.key}:{answer}")

    def sheet_notes(self) -> list[str]:
        options = ", ".join(f'`"{o}"`' for o in self.options)
        return [f'Answer in `{ANSWERS}["{self.key}"]`, one of {options}.']


def _near_key(key: str, answers: dict) -> str:
    """A hint when `answers` holds a key that is `key` spelt another way (`causal-mask`,
    `Causal Mask`, `casual_mask`): the answer is there, under a name no question reads."""
    import difflib  # only for a question left unanswered: not on a grade's cold path

    wanted = _letters(key)
    for given in answers:
        if (isinstance(given, str) and given != key and answers[given] is not None
                and len(given) <= 60 and (_letters(given) == wanted or difflib.SequenceMatcher(
                    None, _letters(given), wanted).ratio() >= 0.85)):
            return (f"{ANSWERS} has the key {given!r}, which no question reads: write the answer "
                    f"under {key!r}.")
    return ""


def _unread_option(raw: str, options: dict) -> tuple[str | None, str]:
    """(SPELT or PHRASE, its sentence) when `raw`, no option as written, is exactly one option
    spelt another way ('bi-directional', 'Pre_trained') or holds exactly one option as a word
    among others ('permutation equivariance'); (None, "") otherwise, and for a negation ('not
    cls'), which names an option it does not mean."""
    same = [o for o in options if _letters(o) and _letters(o) == _letters(raw)]
    if len(same) == 1:
        return SPELT, (f"{raw!r} is the option {same[0]!r} spelt another way: write the option's "
                       "key exactly as the question lists it.")
    words = re.findall(r"[a-z0-9]+", raw.lower())
    if len(raw) > 200 or {"not", "no", "nor", "never", "without"} & set(words):
        return None, ""
    pieces = set(words) | {a + b for a, b in zip(words, words[1:], strict=False)}  # bi directional
    named = [o for o in options if _letters(o) in pieces]
    if len(named) == 1:
        return PHRASE, (f"{raw!r} names the option {named[0]!r} among other words: write only "
                        f"its key, {named[0]!r}.")
    return None, ""


def _letters(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())
