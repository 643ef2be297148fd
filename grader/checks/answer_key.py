"""What a multiple-choice answer earns: right, wrong (with that option's feedback), or not an
option. From the spec's plain `correct:` and `options:`, or from the key `vitgrade dist` seals
into the compiled data (table `answers`): per option, a salted sha256 of its verdict and its
feedback XOR-ed with a keystream derived from the option, so that a student learns an option's
verdict and feedback only by naming it (docs/security.md: "The student bundle").
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

SEALED = "(sealed: in the compiled data)"
RIGHT = "right"


def normalise(answer: str) -> str:
    """Case and surrounding white space do not matter."""
    return answer.strip().lower()


@dataclass(frozen=True)
class AnswerKey:
    """verdict(answer) -> True (right), False (a wrong option) or None (not an option)."""
    options: dict  # normalised option -> its feedback, or its sealed entry
    salt: str | None = None  # None: plain (the spec's own words)
    right: str | None = None  # the plain key's right option, normalised

    def verdict(self, answer: str) -> bool | None:
        option = normalise(answer)
        if option not in self.options:
            return None
        if self.salt is None:
            return option == self.right
        return self.options[option]["verdict"] == _verdict_hash(self.salt, option, RIGHT)

    def feedback(self, answer: str) -> str:
        option = normalise(answer)
        if self.salt is None:
            return self.options[option]
        import base64  # a sealed key (the bundle) only

        sealed = base64.b64decode(self.options[option]["feedback"])
        return _xor(sealed, _stream(self.salt, option, len(sealed))).decode("utf-8", "replace")


def plain_key(correct: str, options: dict) -> AnswerKey:
    return AnswerKey({normalise(k): v for k, v in options.items()}, right=normalise(correct))


def sealed_key(entry: dict) -> AnswerKey:
    """The key stored by `seal` (ValueError when it is not one)."""
    if not (isinstance(entry, dict) and isinstance(entry.get("salt"), str)
            and isinstance(entry.get("options"), dict)):
        raise ValueError("not a sealed answer key")
    return AnswerKey(dict(entry["options"]), salt=entry["salt"])


def seal(correct: str, options: dict, salt: str | None = None) -> dict:
    """The sealed key of a multiple-choice check (JSON-able); a fresh random salt by default."""
    import base64
    import secrets  # `vitgrade dist` only: not on the grading path

    salt = salt or secrets.token_hex(16)
    sealed = {}
    for option, feedback in options.items():
        name = normalise(option)
        verdict = RIGHT if name == normalise(correct) else "wrong"
        data = feedback.encode("utf-8")
        sealed[name] = {"verdict": _verdict_hash(salt, name, verdict),
                        "feedback": base64.b64encode(
                            _xor(data, _stream(salt, name, len(data)))).decode("ascii")}
    return {"salt": salt, "options": sealed}


def _verdict_hash(salt: str, option: str, verdict: str) -> str:
    return hashlib.sha256(f"verdict\0{salt}\0{option}\0{verdict}".encode()).hexdigest()


def _stream(salt: str, option: str, size: int) -> bytes:
    key = hashlib.sha256(f"feedback\0{salt}\0{option}".encode()).digest()
    blocks = (hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(size // 32 + 1))
    return b"".join(blocks)[:size]


def _xor(data: bytes, stream: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))
