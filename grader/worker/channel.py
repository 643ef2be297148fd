"""Framed messages over the socket between grader and worker, each bounded before it is read.

A message is a 4-byte length, a JSON object whose "blobs" lists the byte sizes of the raw
arrays that follow (values.py), then those bytes; docs/architecture.md, "The channel", says what
the receiver checks before it allocates. Anything malformed is a ProtocolError, nothing else.

REPLY is what the grading process accepts from a worker: 64 MB in all, of which at most 8 MB of
JSON with at most 100,000 lists and objects (a (196, 16, 16, 3) patch array as nested lists is
50,000). Decoding such a reply costs the grading process at most a few hundred MB.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from dataclasses import dataclass

from grader.worker.values import ProtocolError


@dataclass(frozen=True)
class Bounds:
    """What one side accepts in one message."""

    total_bytes: int  # the JSON and the arrays together
    json_bytes: int
    containers: int  # JSON lists and objects, counted as "[" and "{" in the raw bytes
    arrays: int


REQUEST = Bounds(total_bytes=512 * 2**20, json_bytes=64 * 2**20, containers=2_000_000,
                 arrays=10_000)
REPLY = Bounds(total_bytes=64 * 2**20, json_bytes=8 * 2**20, containers=100_000, arrays=10_000)

_LENGTH = struct.Struct("<I")


class ConnectionClosed(ProtocolError):
    """The other side hung up: a worker that died, or a grader that went away."""


class MessageTooLarge(ValueError):
    """A message to send breaks the bounds its receiver accepts."""


def _refuse_constant(name):
    raise ValueError(f"JSON constant {name} is not allowed")


_decode_json = json.JSONDecoder(parse_constant=_refuse_constant).decode
_encode_json = json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode


def containers(data: bytes) -> int:
    """An upper bound on the lists and objects JSON `data` holds (brackets in strings count too)."""
    return data.count(b"[") + data.count(b"{")


def frame(header: dict | str, blobs: list[bytes], bounds: Bounds) -> bytes:
    """One message as bytes; MessageTooLarge when its receiver would refuse it. `header` is a
    dict, or JSON text of an object whose last field is `"blobs":` (filled in here)."""
    lengths = [len(blob) for blob in blobs]
    if type(header) is dict:
        data = _encode_json({**header, "blobs": lengths}).encode()
    else:  # a list of ints joined by hand: cheaper than json
        data = f"{header}[{','.join(map(str, lengths))}]}}".encode()
    if len(data) > bounds.json_bytes or containers(data) > bounds.containers:
        raise MessageTooLarge(f"more than {bounds.json_bytes // 2**20} MB of JSON or "
                              f"{bounds.containers} lists and dicts")
    if len(blobs) > bounds.arrays or len(data) + sum(lengths) > bounds.total_bytes:
        raise MessageTooLarge(f"more than {bounds.arrays} arrays or "
                              f"{bounds.total_bytes // 2**20} MB")
    return b"".join([_LENGTH.pack(len(data)), data, *blobs])  # one write: one wake-up of the reader


class Connection:
    """One end of a worker socket: whole messages, each within a deadline.

    `deadline` is a time.monotonic() value, or None to wait for ever; past it, TimeoutError.
    Reads fetch up to READ_AHEAD bytes at once and keep what belongs to the next message, so a
    small message costs one system call.
    """

    READ_AHEAD = 2**16

    def __init__(self, sock: socket.socket, *, send: Bounds, receive: Bounds):
        self.sock, self.send_bounds, self.receive_bounds = sock, send, receive
        self._chunk, self._pos = b"", 0  # bytes fetched ahead, and how far they are read

    def send(self, header: dict | str, blobs: list[bytes] = (),
             deadline: float | None = None) -> None:
        message = frame(header, list(blobs), self.send_bounds)
        self._set_timeout(deadline)
        self.sock.sendall(message)

    def receive(self, deadline: float | None = None) -> tuple[dict, list[memoryview]]:
        """The next message -> (its JSON object, its blobs)."""
        bounds = self.receive_bounds
        (size,) = _LENGTH.unpack(self._read(_LENGTH.size, deadline, first=True))
        if size > bounds.json_bytes:
            raise ProtocolError(f"a message of {size} bytes of JSON (at most {bounds.json_bytes})")
        data = bytes(self._read(size, deadline))
        if containers(data) > bounds.containers:
            raise ProtocolError(f"a message with more than {bounds.containers} lists and dicts")
        try:
            header = _decode_json(data.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise ProtocolError(f"a malformed message ({type(exc).__name__})") from None
        sizes = header.pop("blobs", None) if type(header) is dict else None
        if (type(sizes) is not list or len(sizes) > bounds.arrays
                or not all(type(n) is int and n >= 0 for n in sizes)):
            raise ProtocolError("a malformed message (its array sizes)")
        if size + sum(sizes) > bounds.total_bytes:
            raise ProtocolError(f"a message larger than {bounds.total_bytes // 2**20} MB")
        body = memoryview(self._read(sum(sizes), deadline))  # blobs are views: no second copy
        blobs, start = [], 0
        for n in sizes:
            blobs.append(body[start : start + n])
            start += n
        return header, blobs

    def close(self) -> None:
        self.sock.close()

    def _read(self, size: int, deadline: float | None, first: bool = False):
        """Exactly `size` bytes: from what was fetched ahead (a read-only view), else from the
        socket (a large message goes straight into a bytearray of its own)."""
        chunk, pos = self._chunk, self._pos
        if len(chunk) - pos >= size:
            self._pos = pos + size
            return memoryview(chunk)[pos : pos + size]
        parts, have = [chunk[pos:]], len(chunk) - pos
        if size <= self.READ_AHEAD:
            while have < size:
                self._set_timeout(deadline)
                data = self.sock.recv(self.READ_AHEAD)
                if not data:
                    where = "" if first and not have else " mid-message"
                    raise ConnectionClosed("connection closed" + where)
                parts.append(data)
                have += len(data)
            self._chunk, self._pos = b"".join(parts), size
            return memoryview(self._chunk)[:size]
        buffer = bytearray(size)
        buffer[:have] = parts[0]
        self._chunk, self._pos = b"", 0
        view = memoryview(buffer)
        while have < size:
            self._set_timeout(deadline)
            n = self.sock.recv_into(view[have:], size - have)
            if n == 0:
                raise ConnectionClosed("connection closed mid-message")
            have += n
        return buffer

    def _set_timeout(self, deadline: float | None) -> None:
        if deadline is None:
            self.sock.settimeout(None)
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("deadline passed")
        self.sock.settimeout(remaining)
