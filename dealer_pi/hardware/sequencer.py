"""Put the shoe's frames back in order, ask for the ones that went missing, and say which are lost.

Pure: frames and the current time in, frames to deliver (in sequence order),
issues and commands to send out. The serial reader calls :meth:`Sequencer.accept`
for every good frame and :meth:`Sequencer.tick` a few times a second.

A gap holds back the frames after it (the order of the cards matters to the
monitor) until the shoe resends the missing ones or ``resend_timeout_ms``
passes; then the missing ones are reported as "draws possibly missed" and the
held frames go on. The shoe resends in order from the requested number, so a
resent frame also proves that the missing frames before it are gone.

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

from dataclasses import dataclass, field

from .dps1 import HISTORY, SEQ_MOD, Frame, Issue, encode_command, seq_after
from .problems import Reason

# A jump this large is not a few lost frames but a shoe that started over or a
# garbled baseline: start again from the new number instead of waiting.
MAX_TRACKED_GAP = 1024
# Frames the shoe may send between our RESEND and its answer.
MAX_IN_FLIGHT = 64


@dataclass
class Step:
    deliver: list[Frame] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    send: list[bytes] = field(default_factory=list)
    on_time: Frame | None = None  # the frame handed on the moment it arrived (not held, not resent)


def _frames(seqs: list[int]) -> str:
    if len(seqs) == 1:
        return f"frame {seqs[0]}"
    return f"{len(seqs)} frames {seqs[0]}..{seqs[-1]}"


class Sequencer:
    def __init__(self, resend_timeout_ms: int = 500) -> None:
        self.resend_timeout_ms = resend_timeout_ms
        self.duplicates = 0
        self.lost = 0
        self.reset()

    def reset(self) -> None:
        """Forget the baseline (a new shoe); nothing is held or awaited."""
        self._next: int | None = None  # one past the highest sequence number seen
        self._deliver_from = 0  # next sequence number to hand on
        self._missing: dict[int, None] = {}  # awaited, in sequence order
        self._held: dict[int, Frame] = {}
        self._deadline: int | None = None

    @property
    def next_seq(self) -> int | None:
        """The number the next new frame should carry (None before the first frame)."""
        return self._next

    def knows(self, seq: int) -> bool:
        """Is ``seq`` awaited or held back (a resent copy would not be news)?"""
        return seq in self._missing or seq in self._held

    @property
    def waiting(self) -> bool:
        return bool(self._missing)

    def rebase(self, frame: Frame, now_ms: int) -> Step:
        """Take ``frame`` as the new start (the shoe restarted): whatever was awaited is lost."""
        step = Step()
        self._give_up(step, "the shoe restarted")
        self._next = (frame.seq + 1) % SEQ_MOD
        self._deliver_from = self._next
        step.deliver.append(frame)
        return step

    def accept(self, frame: Frame, now_ms: int) -> Step:
        step = Step()
        seq = frame.seq
        if self._next is None:
            self._next = (seq + 1) % SEQ_MOD
            self._deliver_from = self._next
            step.deliver.append(frame)
            step.on_time = frame
            return step
        ahead = seq_after(self._next, seq)
        if ahead == 0 and not self._missing:
            self._next = self._deliver_from = (seq + 1) % SEQ_MOD
            step.deliver.append(frame)
            step.on_time = frame
            return step
        if ahead < -(HISTORY + MAX_IN_FLIGHT) and seq not in self._missing:
            # Too far back to be an answer to RESEND: the shoe started over.
            step = self.rebase(frame, now_ms)
            step.issues.insert(0, Issue(Reason.SHOE_RESTARTED,
                                        f"frame numbers went back from {(seq - ahead) % SEQ_MOD} to {seq}: "
                                        "the shoe started over", seq))
            return step
        if ahead < 0:
            # An old number comes back only in answer to RESEND, which goes in order:
            # whatever we still await before it, the shoe no longer has.
            gone = [m for m in self._missing if seq_after(m, seq) > 0]
            if gone:
                self._lose(step, gone, "the shoe no longer had them")
            if seq in self._missing:
                del self._missing[seq]
                self._held[seq] = frame
            else:
                self.duplicates += 1
            self._release(step)
            return step
        if ahead > MAX_TRACKED_GAP:
            step = self.rebase(frame, now_ms)
            step.issues.append(Issue(Reason.MISSED, f"sequence jumped by {ahead} frames: draws possibly missed", seq))
            self.lost += ahead
            return step
        new_gap = [(self._next + i) % SEQ_MOD for i in range(ahead)]
        for m in new_gap:
            self._missing[m] = None
        self._held[seq] = frame
        self._next = (seq + 1) % SEQ_MOD
        if new_gap:
            step.issues.append(Issue(Reason.GAP, f"{_frames(new_gap)} missing before {seq}; asked the shoe to resend",
                                     seq))
            step.send.append(encode_command("RESEND", str(new_gap[0])))
            self._deadline = now_ms + self.resend_timeout_ms
        self._release(step)
        return step

    def tick(self, now_ms: int) -> Step:
        step = Step()
        if self._missing and self._deadline is not None and now_ms >= self._deadline:
            self._give_up(step, f"no resend within {self.resend_timeout_ms} ms")
        return step

    def _give_up(self, step: Step, why: str) -> None:
        if self._missing:
            self._lose(step, list(self._missing), why)
        self._release(step)

    def _lose(self, step: Step, seqs: list[int], why: str) -> None:
        for m in seqs:
            self._missing.pop(m, None)
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
