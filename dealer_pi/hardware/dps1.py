"""DPS/1, the smart-shoe line protocol (full text: ``hardware/shoe-protocol.md``).

Pure code: bytes in, frames and issues out. No port, no thread, no clock, so
the same decoder serves the live reader, ``shoe listen``, the virtual shoe
(for the host's commands) and the tests.

An :class:`Issue` says what is wrong and where in ``detail`` (frame number,
byte count: safe to show the dealer) and puts whatever the bytes held in
``secret``: a damaged DRAW frame still names its card.

A frame is ``$BODY*XX`` and a newline, ``XX`` the XOR of BODY's bytes in
upper-case hex; BODY is ``SEQ,TYPE[,FIELD...]`` from the shoe and
``TYPE[,FIELD...]`` from the host.

>>> encode_frame(12, "DRAW", "5120", "Kd")
b'$12,DRAW,5120,Kd*06\\n'
>>> d = Decoder()
>>> d.feed(b"noise$12,DRAW,51")
[]
>>> d.feed(b"20,Kd*06\\r\\n$13,HB,5200*7")  # doctest: +NORMALIZE_WHITESPACE
[Issue(reason=<Reason.GARBAGE: 'garbage'>, detail='5 bytes skipped before a frame', seq=None, secret="b'noise'"),
 Frame(seq=12, kind='DRAW', fields=('5120', 'Kd'))]
>>> interpret(Frame(12, "DRAW", ("5120", "Kd")))
Draw(seq=12, ms=5120, card='Kd')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Final, Union

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

from .problems import Reason

BAUD: Final = 115200
SEQ_MOD: Final = 65536
HISTORY: Final = 64  # frames the shoe keeps for RESEND
MAX_LINE: Final = 200  # bytes from '$' to LF; a longer line is dropped, whatever its checksum
PROTOCOL_VERSION: Final = "1"
SHOE_TYPES: Final = ("HELLO", "DRAW", "HB", "FAULT")
HOST_TYPES: Final = ("HELLO?", "RESEND")

_HEX: Final = frozenset(b"0123456789ABCDEF")
_SEQ_RE: Final = re.compile(r"\A[0-9]{1,5}\Z")
_MS_RE: Final = re.compile(r"\A[0-9]{1,10}\Z")
_TYPE_RE: Final = re.compile(r"\A[A-Z][A-Z?]{0,15}\Z")
_UID_RE: Final = re.compile(r"\A[Uu]:([0-9A-Fa-f]{2}){2,16}\Z")
_WORD_RE: Final = re.compile(r"\A[A-Za-z0-9._:/+-]{1,40}\Z")


def checksum(body: bytes) -> int:
    """XOR of every byte of ``body``.

    >>> f"{checksum(b'0,HB,0'):02X}"
    '0A'
    """
    return reduce(xor, body, 0)


def encode_body(body: str) -> bytes:
    raw = body.encode("ascii")
    return b"$%s*%02X\n" % (raw, checksum(raw))


def encode_frame(seq: int, kind: str, *fields: str) -> bytes:
    """One shoe-to-host frame, ready to write."""
    return encode_body(",".join((str(seq % SEQ_MOD), kind) + fields))


def encode_command(kind: str, *fields: str) -> bytes:
    """One host-to-shoe command (``HELLO?`` or ``RESEND,<from-seq>``).

    >>> encode_command("RESEND", "65530")
    b'$RESEND,65530*12\\n'
    """
    return encode_body(",".join((kind,) + fields))


@dataclass(frozen=True, slots=True)
class Issue:
    """Something in the byte stream that is not a good frame.

    ``detail`` never quotes the bytes; ``secret`` does (producer view and log only).
    """

    reason: Reason
    detail: str
    seq: int | None = None
    secret: str = ""


@dataclass(frozen=True, slots=True)
class Frame:
    """A shoe frame whose checksum, sequence number and type token are well formed."""

    seq: int
    kind: str
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Command:
    """A host command as the shoe reads it."""

    kind: str
    fields: tuple[str, ...]


def _preview(raw: bytes | bytearray, limit: int = 24) -> str:
    head = bytes(raw[:limit])
    return repr(head) + ("..." if len(raw) > limit else "")


class Decoder:
    """Incremental: call :meth:`feed` with whatever the port gave; frames may be split or joined.

    ``sequenced`` is True for the shoe's frames (``SEQ,TYPE,...``) and False for
    the host's commands. A run of bad bytes (noise, cut-off frames) is reported
    once, just before the next complete line; the decoder resynchronises on ``$``.
    """

    def __init__(self, sequenced: bool = True) -> None:
        self.sequenced = sequenced
        self._buf = bytearray()
        self._garbage = bytearray()
        self._garbage_count = 0

    def feed(self, data: bytes) -> list[Union[Frame, Command, Issue]]:
        out: list[Union[Frame, Command, Issue]] = []
        buf = self._buf
        buf += data
        pos = 0
        n = len(buf)
        while pos < n:
            start = buf.find(b"$", pos)
            if start < 0:
                self._skip(buf, pos, n)
                pos = n
                break
            if start > pos:
                self._skip(buf, pos, start)
            nl = buf.find(b"\n", start)
            if nl < 0:
                if n - start > MAX_LINE:
                    # No newline in sight: this is not a frame; look for the next '$'.
                    again = buf.find(b"$", start + 1)
                    cut = again if again > 0 else n
                    self._skip(buf, start, cut)
                    pos = cut
                    continue
                pos = start
                break
            inner = buf.find(b"$", start + 1, nl)
            if inner > 0:
                # A frame cut short by the start of another one.
                self._skip(buf, start, inner)
                pos = inner
                continue
            if nl + 1 - start > MAX_LINE:
                # Over-long: not a DPS/1 frame, whatever its checksum says (a shoe never sends one).
                self._skip(buf, start, nl + 1)
                pos = nl + 1
                continue
            self._flush_garbage(out)
            end = nl - 1 if nl > start and buf[nl - 1] == 0x0D else nl
            out.append(self._line(bytes(buf[start + 1:end])))
            pos = nl + 1
        del buf[:pos]
        return out

    def _skip(self, buf: bytearray, a: int, b: int) -> None:
        chunk = buf[a:b]
        junk = chunk.translate(None, b"\r\n")
        if junk:
            self._garbage_count += len(junk)
            if len(self._garbage) < 24:
                self._garbage += junk[: 24 - len(self._garbage)]

    def _flush_garbage(self, out: list[Union[Frame, Command, Issue]]) -> None:
        if self._garbage_count:
            out.append(Issue(Reason.GARBAGE, f"{self._garbage_count} bytes skipped before a frame",
                             secret=_preview(self._garbage)))
            self._garbage_count = 0
            self._garbage.clear()

    def _line(self, line: bytes) -> Union[Frame, Command, Issue]:
        seq = _maybe_seq(line) if self.sequenced else None
        where = _where(line, seq)
        raw = _preview(line)
        star = line.rfind(b"*")
        if star < 0 or len(line) - star != 3:
            return Issue(Reason.BAD_FRAME, f"{where}: no '*XX' checksum at the end", None, raw)
        body, given = line[:star], line[star + 1:]
        if not all(c in _HEX for c in given):
            return Issue(Reason.BAD_FRAME, f"{where}: the checksum is not two upper-case hex digits", None,
                         f"{raw}: checksum {given!r}")
        want = checksum(body)
        if int(given, 16) != want:
            # The number of a damaged frame is not trusted, but it says where the damage was.
            return Issue(Reason.BAD_CHECKSUM, f"{where}: checksum does not match", seq,
                         f"{raw}: checksum {given.decode()}, computed {want:02X}")
        if not all(32 <= c < 127 for c in body):
            return Issue(Reason.BAD_FRAME, f"{where}: body is not printable ASCII", seq, raw)
        parts = body.decode("ascii").split(",")
        if not self.sequenced:
            return Command(parts[0], tuple(parts[1:]))
        if len(parts) < 2 or seq is None:
            return Issue(Reason.BAD_FRAME, f"{where}: body must start with SEQ,TYPE (SEQ 0-65535)", None, raw)
        if not _TYPE_RE.match(parts[1]):
            return Issue(Reason.BAD_FRAME, f"{where}: the second field is not a frame type", seq, raw)
        return Frame(seq, parts[1], tuple(parts[2:]))


def _where(line: bytes, seq: int | None) -> str:
    """Where a bad line was, without quoting it: ``frame 12 (20 bytes)``.

    >>> _where(b"12,DRAW,5120,Kd*06", 12), _where(b"x,Kd", None)
    ('frame 12 (20 bytes)', 'a frame of 6 bytes')
    """
    size = len(line) + 2  # with its '$' and LF
    return f"frame {seq} ({size} bytes)" if seq is not None else f"a frame of {size} bytes"


def _maybe_seq(body: bytes) -> int | None:
    comma = body.find(b",")
    head = body[:comma] if comma >= 0 else body
    if 1 <= len(head) <= 5 and head.isdigit():
        value = int(head)
        return value if value < SEQ_MOD else None
    return None


# ---- meaning of each frame type -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello:
    seq: int
    version: str
    firmware: str
    shoe_id: str


@dataclass(frozen=True, slots=True)
class Draw:
    """``card`` is ``Ah``-style text, ``U:<hex>`` for an RFID tag, or ``?`` (unread)."""

    seq: int
    ms: int
    card: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    seq: int
    ms: int


@dataclass(frozen=True, slots=True)
class Fault:
    seq: int
    ms: int
    code: str
    extra: tuple[str, ...] = ()


Message = Union[Hello, Draw, Heartbeat, Fault]


class FrameError(ValueError):
    """A frame with a good checksum whose fields are wrong.

    The message names the frame and the field; ``secret`` holds the field's value
    (a DRAW frame's card field is a card even when it is malformed).
    """

    def __init__(self, reason: Reason, detail: str, secret: str = "") -> None:
        self.reason = reason
        self.secret = secret
        super().__init__(detail)


def _ms(frame: Frame, i: int) -> int:
    if len(frame.fields) <= i or not _MS_RE.match(frame.fields[i]):
        raise FrameError(Reason.BAD_FRAME, f"{frame.kind} frame {frame.seq}: field {i + 1} (ms) must be a whole number",
                         f"fields {frame.fields!r}")
    return int(frame.fields[i])


def _arity(frame: Frame, low: int, high: int | None = None) -> None:
    n = len(frame.fields)
    if n < low or (high is not None and n > high):
        want = f"{low}" if high == low else f"{low} or more" if high is None else f"{low}-{high}"
        raise FrameError(Reason.BAD_FRAME, f"{frame.kind} frame {frame.seq}: {want} fields expected, got {n}",
                         f"fields {frame.fields!r}")


def check_card_token(token: str) -> str:
    """``Ah``, ``U:04A1B2C3`` (normalised to upper case) or ``?``; raises ``ValueError`` otherwise.

    >>> check_card_token("u:04a1b2c3")
    'U:04A1B2C3'
    """
    if token == "?":
        return token
    if _UID_RE.match(token):
        return "U:" + token[2:].upper()
    try:
        return str(Card.parse(token))
    except InputError as exc:
        raise ValueError(f"card {token!r}: use Ah-style, U:<hex> or ?") from exc


def may_name_a_card(word: str) -> bool:
    """Could ``word`` (or a part of it between ``-``, ``:``, ``.``...) be read as a card or a tag?

    >>> [may_name_a_card(w) for w in ("JAM", "LOW-POWER", "Kd", "X-AH", "10c", "U:04A1", "READER")]
    [False, False, True, True, True, True, False]
    """
    if _UID_RE.match(word) or word.upper().startswith("U:"):
        return True
    for part in re.split(r"[^A-Za-z0-9]+", word):
        try:
            Card.parse(part)
            return True
        except InputError:
            continue
    return False


def _word(value: str, what: str, frame: Frame) -> None:
    if not _WORD_RE.match(value):
        raise FrameError(Reason.BAD_FRAME, f"{frame.kind} frame {frame.seq}: the {what} is not a word", f"{what} {value!r}")


def interpret(frame: Frame) -> Message:
    """Check the fields of a frame and give its meaning; :class:`FrameError` names what is wrong."""
    kind = frame.kind
    if kind == "DRAW":
        _arity(frame, 2, 2)
        try:
            card = check_card_token(frame.fields[1])
        except ValueError as exc:
            raise FrameError(Reason.BAD_FRAME, f"DRAW frame {frame.seq}: the card field is not Ah-style, U:<hex> or ?",
                             str(exc)) from None
        return Draw(frame.seq, _ms(frame, 0), card)
    if kind == "HB":
        _arity(frame, 1, 1)
        return Heartbeat(frame.seq, _ms(frame, 0))
    if kind == "FAULT":
        _arity(frame, 2)
        _word(frame.fields[1], "code", frame)
        return Fault(frame.seq, _ms(frame, 0), frame.fields[1], frame.fields[2:])
    if kind == "HELLO":
        _arity(frame, 3, 3)
        version, firmware, shoe_id = frame.fields
        if version != PROTOCOL_VERSION:
            raise FrameError(Reason.BAD_FRAME, f"HELLO frame {frame.seq}: another protocol version; this host speaks 1",
                             f"protocol version {version!r}")
        _word(firmware, "firmware", frame)
        _word(shoe_id, "shoe-id", frame)
        return Hello(frame.seq, version, firmware, shoe_id)
    raise FrameError(Reason.UNKNOWN_TYPE, f"frame {frame.seq}: not a DPS/1 frame type (HELLO, DRAW, HB, FAULT)",
                     f"type {kind!r}")


def seq_after(a: int, b: int) -> int:
    """How far ``b`` is after ``a`` on the wrapping sequence, in ``-32768..32767``.

    >>> seq_after(65534, 1)
    3
    >>> seq_after(5, 3)
    -2
    """
    d = (b - a) % SEQ_MOD
    return d - SEQ_MOD if d >= SEQ_MOD // 2 else d
