"""Stand-ins, worker side: student-API names bound, for one call, to functions that ask the
grader.

When a check is graded again around the student's broken helpers (checks/dependencies.py), its
request names them with their number of API parameters and the defaults of the API's optional
ones (`"stand_ins": {"patchify": [2, []], "softmax": [1, [-1]]}`). For
each call of that request the namespace maps each name to a stand-in, and so does every default
argument and closure cell of a top-level function that holds the student's own (`_ln=layer_norm`).
A stand-in binds its arguments as the student's function would (`bind`: any calling style it
accepts works), sends them to the grading process as data and returns the answer as data; the
reference never enters this process:

  worker -> grader:  {"op": "stand_in", "seq", "index", "name", "call": [args, {}]} + arrays
                     | {"op": "stand_in", "seq", "index", "name", "refused": why} (not bound)
  grader -> worker:  {"status": "ok", "value"} + arrays | {"status": "raised", "type", "message"}
                     | {"status": "unavailable", "message"}
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import inspect
import os
import signal
import types

from grader.worker import channel
from grader.worker.top_level import TopLevelTimeout
from grader.worker.values import Decoder, Encoder, NotData, ProtocolError, TooLarge

# What a stand-in re-raises of the reference's refusals; anything else is a RuntimeError.
RAISABLE = frozenset({"ValueError", "TypeError", "IndexError", "KeyError", "ZeroDivisionError",
                      "ArithmeticError", "AssertionError", "RuntimeError"})
NAMED = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
         inspect.Parameter.KEYWORD_ONLY)


class StandInUnavailable(Exception):
    """The grader could not answer a stand-in here (the course solution never made this call):
    the check keeps its grade without stand-ins."""


@contextlib.contextmanager
def bound(namespace: dict, names: dict[str, list], conn: channel.Connection, seq: int,
          index: int, slow=(), crashed=()):
    """`names` (name -> [its number of API parameters, the defaults of its optional ones])
    replaced by stand-ins in `namespace`, and
    wherever a top-level function captured the student's own, for the duration of the block;
    the names in `slow` (known not to return in time) by functions raising TopLevelTimeout,
    those in `crashed` (known to end the worker) by functions raising a RuntimeError."""
    if not names and not slow and not crashed:  # most calls: nothing is bound, nor scanned
        yield
        return
    saved = {name: namespace[name] for name in {*names, *slow, *crashed} if name in namespace}
    active = [True]  # a stand-in kept past its call refuses
    stand_ins = {name: functools.partial(_crashed, name) for name in crashed}
    stand_ins.update({name: functools.partial(_did_not_return, name) for name in slow})
    stand_ins.update({name: _stand_in(name, parameters, saved.get(name), conn, seq, index,
                                      active) for name, parameters in names.items()})
    undo = _swap_captured(namespace, {id(f): stand_ins[n] for n, f in saved.items()
                                      if isinstance(f, types.FunctionType)})
    for name, stand_in in stand_ins.items():
        namespace[name] = stand_in
    try:
        yield
    finally:
        active[0] = False
        for restore in reversed(undo):
            restore()
        for name in stand_ins:
            if name in saved:
                namespace[name] = saved[name]
            else:
                namespace.pop(name, None)


def _swap_captured(namespace: dict, swaps: dict[int, object]) -> list:
    """Put each stand-in where a default or a closure cell of a top-level function holds the
    function it replaces (swaps: its id -> the stand-in; `saved` keeps each alive, so no other
    object has that id); -> what undoes each swap."""
    undo = []
    for value in list(namespace.values()):
        if not isinstance(value, types.FunctionType):
            continue
        defaults, kwdefaults = value.__defaults__, value.__kwdefaults__
        if defaults and any(id(d) in swaps for d in defaults):
            value.__defaults__ = tuple(swaps.get(id(d), d) for d in defaults)
            undo.append(lambda f=value, d=defaults: setattr(f, "__defaults__", d))
        if kwdefaults and any(id(d) in swaps for d in kwdefaults.values()):
            value.__kwdefaults__ = {k: swaps.get(id(d), d) for k, d in kwdefaults.items()}
            undo.append(lambda f=value, d=kwdefaults: setattr(f, "__kwdefaults__", d))
        for cell in value.__closure__ or ():
            try:
                held = cell.cell_contents
            except ValueError:  # a cell not filled yet
                continue
            if id(held) in swaps:
                cell.cell_contents = swaps[id(held)]
                undo.append(lambda cell=cell, held=held: setattr(cell, "cell_contents", held))
    return undo


def _did_not_return(name: str, *args, **kwargs):
    raise TopLevelTimeout(name)


def _crashed(name: str, *args, **kwargs):
    raise RuntimeError(f"`{name}` crashed the grader's worker at an earlier call; it is not run "
                       "again")


def _stand_in(name: str, parameters: list, own, conn: channel.Connection, seq: int, index: int,
              active: list):
    owner = os.getpid()
    signature = _signature(own)
    header = {"op": "stand_in", "seq": seq, "index": index, "name": name}

    def stand_in(*args, **kwargs):
        if not active[0] or os.getpid() != owner:
            raise RuntimeError(f"the grader's stand-in for {name} works only during its call")
        try:
            values = bind(signature, parameters[0], args, kwargs, options=tuple(parameters[1]))
        except TypeError as exc:  # the student's own function would not take this call either
            why, error = f"the call does not fit your {name}: {exc}", TypeError(f"{name}(): {exc}")
        except LookupError as exc:
            why = f"the grader cannot stand in for your {name} here: {exc}"
            error = StandInUnavailable(why)
        else:
            encoder = Encoder(max_bytes=conn.send_bounds.total_bytes // 2)
            try:
                tree = [encoder.encode(values), {}]
                return _ask(conn, {**header, "call": tree}, encoder.blobs)
            except (NotData, TooLarge) as exc:
                why = (f"the grader's stand-in for {name} takes only numbers, strings, arrays, "
                       f"lists and dicts ({exc})")
                error = TypeError(why)
        with contextlib.suppress(StandInUnavailable):  # the grader keeps the first verdict
            _ask(conn, {**header, "refused": why[:300]}, [])
        raise error

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__doc__ = f"The grader's correct {name}, standing in for yours during this check."
    if signature is not None:
        stand_in.__signature__ = signature
    return stand_in


def _signature(function) -> inspect.Signature | None:
    try:
        return inspect.signature(function) if callable(function) else None
    except Exception:  # noqa: BLE001 - a builtin, or a __signature__ of the student's that raises
        return None


def bind(signature: inspect.Signature | None, arity: int, args: tuple, kwargs: dict,
         options: tuple = ()) -> list:
    """The API's arguments of a call, bound the way the student's function (of `signature`;
    None: plain positions) binds it: the `arity` it needs, then those of its optional ones
    (whose API defaults are `options`) the call sets, up to the last set to other than the API's
    default (`softmax(s.T, axis=0)` -> [s.T, 0]). TypeError: the call does not fit it;
    LookupError: it sets a parameter beyond the API's to other than its default."""
    if signature is None:
        if kwargs or not arity <= len(args) <= arity + len(options):
            raise LookupError(f"it takes {arity} arguments by position here")
        return _trimmed(list(args), arity, options)
    call = signature.bind(*args, **kwargs)
    passed = set(call.arguments)  # what the call sets; the student's own defaults do not count
    call.apply_defaults()
    named = [p for p in signature.parameters.values() if p.kind in NAMED]
    if len(named) < arity:
        raise LookupError(f"your function takes fewer than the {arity} parameters of the API")
    api = named[:arity + len(options)]
    for parameter in signature.parameters.values():
        value = call.arguments.get(parameter.name)
        if parameter in api or parameter.name not in call.arguments:
            continue
        if parameter.kind in NAMED and not _is_default(value, parameter.default):
            raise LookupError(f"it sets `{parameter.name}` to other than its default, and the "
                              "grader's stand-in answers the API's parameters only")
        if parameter.kind not in NAMED and value:  # what *args or **kwargs caught
            raise LookupError(f"it passes more than the course's function takes "
                              f"(`{parameter.name}`)")
    values = [call.arguments[p.name] for p in named[:arity]]
    values += [call.arguments[p.name] if p.name in passed else default
               for p, default in zip(api[arity:], options, strict=False)]
    return _trimmed(values, arity, options)


def _trimmed(values: list, arity: int, options: tuple) -> list:
    """`values` without the optional ones at its end that equal the API's defaults: the calls
    the course solution makes, as they were recorded."""
    while len(values) > arity and _is_default(values[-1], options[len(values) - arity - 1]):
        values.pop()
    return values


def _is_default(value, default) -> bool:
    try:  # a number or string equal to the default, of the same type (True is not 1)
        return value is default or (type(value) in (bool, int, float, str)
                                     and type(value) is type(default) and value == default)
    except Exception:  # noqa: BLE001 - whatever a student's value does
        return False


def _ask(conn: channel.Connection, header: dict, blobs: list):
    """Send a stand-in's call to the grader and return its answer (or raise what it says); the
    call's alarm (serve.py) waits, as it would garble the exchange."""
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    try:
        conn.send(header, blobs)
        answer, answer_blobs = conn.receive()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
    status = answer.get("status")
    if status == "ok":
        return Decoder(answer_blobs).decode(answer.get("value"))
    message = str(answer.get("message", ""))[:1000]
    if status == "raised":
        kind = str(answer.get("type"))
        raise (getattr(builtins, kind) if kind in RAISABLE else RuntimeError)(message)
    if status == "unavailable":
        raise StandInUnavailable(message)
    raise ProtocolError("a malformed stand-in answer")


def requested(header: dict) -> dict[str, list]:
    """The stand-ins a request asks for: name -> [its number of API parameters, the defaults of
    its optional ones] (ProtocolError for anything else)."""
    names = header.get("stand_ins", {})
    if type(names) is not dict or not all(
            type(n) is str and n.isidentifier() and type(a) is list and len(a) == 2
            and type(a[0]) is int and 0 <= a[0] <= 16 and type(a[1]) is list and len(a[1]) <= 4
            and all(type(d) in (bool, int, float, str) for d in a[1])
            for n, a in names.items()):
        raise ProtocolError("malformed stand-ins")
    return names
