"""Put the shoe's frames back in order, ask for the ones that went missing, and say which are lost.

Pure: frames and the current time in, frames to deliver (in sequence order),
issues and commands to send out. The serial reader calls :meth:`Sequencer.accept`
for every good frame and :meth:`Sequencer.tick` a few times a second.

A gap holds back the frames after it (the order of the cards matters to the
monitor) until the shoe resends the missing ones or ``resend_timeout_ms``
passes; then the missing ones are reported as "draws possibly missed" and the
held frames go on. The shoe resends in order from the requested number, so a
resent frame also proves that the missing frames before it are gone.

What the shoe sends cannot all be trusted (an 8-bit checksum lets one damaged
frame in 256 through, and bytes can arrive late), so:

* a copy is recognised by its content, not its number: a frame byte for byte
  like one already taken is never handed on twice, and a frame whose number
  was used before with other content is not a copy;
* a frame that does not fit (numbered far ahead, or behind and not awaited, or
  whose ``<ms>`` is earlier than the shoe's clock already showed) is set aside
  as a *stray*. If the shoe's next frame that arrives continues from it (a few
  numbers on, its clock not back) and not from the old numbering, the shoe
  really started over (its numbers or its clock went back) or jumped: the host
  follows and asks for what it missed in between. If the next frame continues
  the old numbering instead, the stray is dropped and reported. A single stale
  or forged frame therefore never moves the host. The power-up HELLO (frame 0)
  is the exception: it is the shoe saying it started over.

Every frame from the shoe is handed on exactly once or named in a report.

>>> s = Sequencer()
>>> [f.seq for f in s.accept(Frame(7, "HB", ("100",)), 0).deliver]
[7]
>>> step = s.accept(Frame(9, "HB", ("300",)), 10)
>>> step.deliver, step.send
([], [b'$RESEND,8*1F\\n'])
>>> [f.seq for f in s.accept(Frame(8, "DRAW", ("200", "Ah")), 20).deliver]
[8, 9]
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field

from .dps1 import HISTORY, SEQ_MOD, Frame, Issue, encode_command, seq_after
from .problems import Reason

# Frames the shoe may send between our RESEND and its answer.
MAX_IN_FLIGHT = 64
# The largest gap worth asking for again: the shoe keeps 64 frames. A frame further ahead is a
# stray until the shoe's next frame confirms the jump.
RESEND_RANGE = HISTORY + MAX_IN_FLIGHT
# Frames remembered by content, to recognise copies (a RESEND answer, a stale frame).
REMEMBERED = 4096
# A stray not confirmed by the shoe's next frame within this time is dropped (the shoe beats
# at least once a second).
STRAY_TIMEOUT_MS = 1500


@dataclass
class Step:
    deliver: list[Frame] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    send: list[bytes] = field(default_factory=list)
    on_time: Frame | None = None  # the frame handed on the moment it arrived (not held, not resent)
    missed: list[range] = field(default_factory=list)  # the sequence numbers reported possibly missed


def _frames(seqs: list[int]) -> str:
    if len(seqs) == 1:
        return f"frame {seqs[0]}"
    return f"{len(seqs)} frames {seqs[0]}..{seqs[-1]}"


def _numbers(first: int, count: int) -> list[range]:
    """``count`` frame numbers from ``first`` on, as ranges that stop where the numbers wrap.

    >>> _numbers(65534, 3)
    [range(65534, 65536), range(0, 1)]
    """
    end = first + count
    return [range(first, min(end, SEQ_MOD))] + ([range(0, end - SEQ_MOD)] if end > SEQ_MOD else [])


def shoe_ms(frame: Frame) -> int | None:
    """The shoe's clock on a frame, when it carries one (DRAW, HB, FAULT).

    >>> shoe_ms(Frame(3, "DRAW", ("5120", "Ah"))), shoe_ms(Frame(0, "HELLO", ("1", "fw", "id")))
    (5120, None)
    """
    if frame.kind in ("DRAW", "HB", "FAULT") and frame.fields:
        ms = frame.fields[0]
        if ms.isascii() and ms.isdigit() and len(ms) <= 10:
            return int(ms)
    return None


def _power_up(frame: Frame) -> bool:
    return frame.kind == "HELLO" and frame.seq == 0


@dataclass
class _Stray:
    frame: Frame
    since_ms: int


class Sequencer:
    def __init__(self, resend_timeout_ms: int = 500, stray_timeout_ms: int = STRAY_TIMEOUT_MS) -> None:
        self.resend_timeout_ms = resend_timeout_ms
        self.stray_timeout_ms = stray_timeout_ms
        self.duplicates = 0
        self.lost = 0
        self._seen: collections.OrderedDict[tuple[int, str, tuple[str, ...]], None] = collections.OrderedDict()
        self.reset()

    def reset(self) -> None:
        """Forget the numbering (a new shoe); nothing is held or awaited."""
        self._next: int | None = None  # one past the highest sequence number taken
        self._deliver_from = 0  # next sequence number to hand on
        self._missing: dict[int, None] = {}  # awaited, in sequence order
        self._held: dict[int, Frame] = {}
        self._deadline: int | None = None
        self._clock: dict[int, int | None] = {}  # numbers taken in the current numbering: the shoe's <ms> on them
        self._last_ms: int | None = None  # the newest <ms> of the current numbering
        self._stray: _Stray | None = None
        self._since_power_up = False  # following a restart: frame 0 awaited is the power-up HELLO

    @property
    def next_seq(self) -> int | None:
        """The number the next new frame should carry (None before the first frame)."""
        return self._next

    @property
    def waiting(self) -> bool:
        return bool(self._missing)

    # ---- frames in ------------------------------------------------------------------------

    def accept(self, frame: Frame, now_ms: int) -> Step:
        step = Step()
        # The power-up HELLO is always news: every power cycle's is the same, byte for byte.
        if not _power_up(frame) and self._key(frame) in self._seen:
            self.duplicates += 1
            self._copy_answers_resend(frame.seq, step)
            return step
        if self._next is None:
            self._start(frame, step)
            step.on_time = frame
            return step
        fits = self._fits(frame)
        stray = self._stray
        if not fits and _power_up(frame):
            # The power-up HELLO: the shoe started over, whatever came before. (A stale copy costs a
            # false alarm, never a lost or repeated draw: copies are still known by their content.)
            self._stray = None
            if stray is not None:
                self._drop_stray(stray.frame, "the shoe then said HELLO", step)
            self._follow(frame, now_ms, step)
            return step
        if stray is not None:
            self._stray = None
            if not fits and self._continues(stray.frame, frame):
                self._follow(stray.frame, now_ms, step)
                self._take(frame, now_ms, step)
                return step
            self._drop_stray(stray.frame, "the shoe's next frame did not continue from it", step)
        if fits:
            self._take(frame, now_ms, step)
        else:
            self._stray = _Stray(frame, now_ms)
        return step

    def tick(self, now_ms: int) -> Step:
        step = Step()
        if self._missing and self._deadline is not None and now_ms >= self._deadline:
            self._give_up(step, f"no resend within {self.resend_timeout_ms} ms")
        if self._stray is not None and now_ms - self._stray.since_ms >= self.stray_timeout_ms:
            stray, self._stray = self._stray.frame, None
            self._drop_stray(stray, f"nothing followed it within {self.stray_timeout_ms} ms", step)
        return step

    # ---- deciding ------------------------------------------------------------------------

    @staticmethod
    def _key(frame: Frame) -> tuple[int, str, tuple[str, ...]]:
        return frame.seq, frame.kind, frame.fields

    def _fits(self, frame: Frame) -> bool:
        """Does ``frame`` belong to the numbering (and clock) the host is following?"""
        assert self._next is not None
        seq, ms = frame.seq, shoe_ms(frame)
        if _power_up(frame):
            # Frame 0 is a HELLO only at power-up: news of a restart, unless that is what we follow.
            return self._since_power_up and seq in self._missing
        if seq in self._missing:
            return self._fills_in_time(seq, ms)
        ahead = seq_after(self._next, seq)
        if not 0 <= ahead <= RESEND_RANGE:
            return False
        return ms is None or self._last_ms is None or ms >= self._last_ms

    def _fills_in_time(self, seq: int, ms: int | None) -> bool:
        """A resent frame's clock lies between its neighbours' (a restarted shoe's does not)."""
        if ms is None:
            return True
        for d in range(1, RESEND_RANGE + 1):
            before = self._clock.get((seq - d) % SEQ_MOD)
            if before is not None:
                if ms < before:
                    return False
                break
        for d in range(1, RESEND_RANGE + 1):
            after = self._clock.get((seq + d) % SEQ_MOD)
            if after is not None:
                return ms <= after
        return True

    @staticmethod
    def _continues(first: Frame, then: Frame) -> bool:
        """Could ``then`` follow ``first`` from the same shoe (a few frames on, clock not back)?"""
        a, b = shoe_ms(first), shoe_ms(then)
        return 0 < seq_after(first.seq, then.seq) <= RESEND_RANGE and (a is None or b is None or b >= a)

    # ---- acting --------------------------------------------------------------------------

    def _remember(self, frame: Frame) -> None:
        self._seen[self._key(frame)] = None
        if len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)
        self._clock[frame.seq] = shoe_ms(frame)
        if len(self._clock) > 2 * RESEND_RANGE:
            self._clock.pop(next(iter(self._clock)))

    def _start(self, frame: Frame, step: Step) -> None:
        self._next = self._deliver_from = (frame.seq + 1) % SEQ_MOD
        self._last_ms = shoe_ms(frame)
        self._remember(frame)
        step.deliver.append(frame)

    def _take(self, frame: Frame, now_ms: int, step: Step, gap_said: bool = False) -> None:
        assert self._next is not None
        seq = frame.seq
        self._remember(frame)
        if seq in self._missing:
            # An old number comes back only in answer to RESEND, which goes in order:
            # whatever we still await before it, the shoe no longer has.
            gone = [m for m in self._missing if seq_after(m, seq) > 0]
            if gone:
                self._lose(step, gone, "the shoe no longer had them")
            del self._missing[seq]
            self._held[seq] = frame
            self._release(step)
            return
        ahead = seq_after(self._next, seq)
        new_gap = [(self._next + i) % SEQ_MOD for i in range(ahead)]
        for m in new_gap:
            self._missing[m] = None
        self._held[seq] = frame
        self._next = (seq + 1) % SEQ_MOD
        ms = shoe_ms(frame)
        if ms is not None:
            self._last_ms = ms
        if new_gap:
            if not gap_said:
                step.issues.append(Issue(Reason.GAP, f"{_frames(new_gap)} missing before {seq}; "
                                         "asked the shoe to resend", seq))
            step.send.append(encode_command("RESEND", str(new_gap[0])))
            self._deadline = now_ms + self.resend_timeout_ms
        elif not self._missing:
            step.on_time = frame
        self._release(step)

    def _copy_answers_resend(self, seq: int, step: Step) -> None:
        """A copy of a frame we hold, numbered after frames still awaited, is the shoe resending
        in order: the awaited ones before it are gone."""
        if seq in self._held:
            gone = [m for m in self._missing if seq_after(m, seq) > 0]
            if gone:
                self._lose(step, gone, "the shoe no longer had them")
                self._release(step)

    def _follow(self, stray: Frame, now_ms: int, step: Step) -> None:
        """The shoe confirmed the stray: it started over (from 0, as at power-up) or jumped. Take
        up its numbering and ask for the frames before the stray that the shoe may still keep."""
        assert self._next is not None
        expected, last_ms = self._next, self._last_ms
        ahead = seq_after(expected, stray.seq)
        ms = shoe_ms(stray)
        went_back = ms is not None and last_ms is not None and ms < last_ms
        restarted = ahead < 0 or went_back or _power_up(stray)
        self._give_up(step, "the shoe started over" if restarted else "the shoe's numbering jumped")
        first = 0 if restarted else expected
        before = seq_after(first, stray.seq) if seq_after(first, stray.seq) > 0 else 0
        kept = min(before, HISTORY)
        if restarted:
            clock = f"; its clock went back from {last_ms} to {ms} ms" if went_back else ""
            asked = f"; asked the shoe to resend {_frames(list(range(stray.seq - kept, stray.seq)))}" if kept else ""
            step.issues.append(Issue(Reason.SHOE_RESTARTED, f"frame numbers went from {expected} to {stray.seq}"
                                     f"{clock}: the shoe started over{asked}; a draw it sent just before "
                                     "that did not arrive is lost", stray.seq))
        if restarted and 0 < ahead <= RESEND_RANGE:
            # The numbers went on while the clock went back: the frames the host awaited in between
            # were the old power cycle's last ones, or (when the newest time was a damaged frame's)
            # this shoe's own. Either way they did not arrive: say so rather than lose them quietly.
            self.lost += ahead
            step.missed += _numbers(expected, ahead)
            step.issues.append(Issue(Reason.MISSED, f"{_frames([(expected + i) % SEQ_MOD for i in range(ahead)])} "
                                     "never arrived before the shoe started over: draws possibly missed", expected))
        if before > kept:
            gone = (stray.seq - before) % SEQ_MOD
            self.lost += before - kept
            step.missed += _numbers(gone, before - kept)
            step.issues.append(Issue(Reason.MISSED, f"{before - kept} frames from {gone} on are older than the shoe "
                                     "keeps: draws possibly missed", gone))
        self._next = self._deliver_from = (stray.seq - kept) % SEQ_MOD
        self._clock.clear()
        self._last_ms = None
        self._since_power_up = restarted
        if restarted:
            # A new power cycle's HELLO and heartbeats may match the last one's byte for byte; its
            # draws cannot (number, time and card), so copies of those are still recognised.
            for key in [k for k in self._seen if k[1] != "DRAW"]:
                del self._seen[key]
        self._take(stray, now_ms, step, gap_said=restarted)

    def _misfit(self, frame: Frame) -> str:
        ms = shoe_ms(frame)
        if frame.seq in self._missing:
            return f"frame {frame.seq} came back with a time ({ms} ms) out of line with the frames around it"
        if self._next is not None and 0 <= seq_after(self._next, frame.seq) <= RESEND_RANGE and ms is not None:
            return f"frame {frame.seq} carried a time ({ms} ms) before the shoe's clock ({self._last_ms} ms)"
        return f"frame {frame.seq} did not fit the shoe's numbering (expected {self._next})"

    def _drop_stray(self, stray: Frame, why: str, step: Step) -> None:
        where = f"{self._misfit(stray)} and {why}"
        if stray.seq in self._clock and stray.seq < RESEND_RANGE and not _power_up(stray):
            # Its number was taken by another frame: garbled, or a shoe that started over with its
            # HELLO lost and numbers that happen to line up. The second cannot be ruled out.
            self.lost += stray.seq + 1
            step.missed.append(range(0, stray.seq + 1))
            step.issues.append(Issue(Reason.MISSED, f"frame {stray.seq} came again with other content and {why}: "
                                     f"if the shoe started over, draws since its power-up (frames 0..{stray.seq}) "
                                     "were possibly missed", stray.seq))
            return
        if stray.kind == "DRAW":
            self.lost += 1
            step.missed.append(range(stray.seq, stray.seq + 1))
            step.issues.append(Issue(Reason.MISSED, f"{where}: ignored; draws possibly missed", stray.seq))
        else:
            step.issues.append(Issue(Reason.STRAY, f"{where}: ignored", stray.seq))

    def _give_up(self, step: Step, why: str) -> None:
        if self._missing:
            self._lose(step, list(self._missing), why)
        self._release(step)

    def _lose(self, step: Step, seqs: list[int], why: str) -> None:
        for m in seqs:
            self._missing.pop(m, None)
            step.missed.append(range(m, m + 1))
        self.lost += len(seqs)
        step.issues.append(Issue(Reason.MISSED, f"{_frames(seqs)} lost ({why}): draws possibly missed",
                                 seqs[0]))

    def _release(self, step: Step) -> None:
        # A number neither awaited nor held was lost; it is stepped over.
        while self._next is not None and self._deliver_from != self._next:
            s = self._deliver_from
            if s in self._missing:
                return
            frame = self._held.pop(s, None)
            if frame is not None:
                step.deliver.append(frame)
            self._deliver_from = (s + 1) % SEQ_MOD
        if not self._missing:
            self._deadline = None
