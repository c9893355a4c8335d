"""The DPS/1 decoder and sequencer on their own: bytes in, frames and issues out."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_pi.hardware import dps1
from dealer_pi.hardware.dps1 import Decoder, Frame, Issue, encode_frame
from dealer_pi.hardware.problems import Reason
from dealer_pi.hardware.sequencer import Sequencer


def frames_of(items: list[object]) -> list[Frame]:
    return [i for i in items if isinstance(i, Frame)]


def issues_of(items: list[object], reason: Reason) -> list[Issue]:
    return [i for i in items if isinstance(i, Issue) and i.reason is reason]


def test_checksum_is_xor_of_body_in_uppercase_hex() -> None:
    raw = encode_frame(3, "DRAW", "77", "Td")
    body = raw[1:raw.index(b"*")]
    x = 0
    for b in body:
        x ^= b
    assert raw.endswith(b"*%02X\n" % x)
    assert raw[-3:-1].upper() == raw[-3:-1]


def test_crlf_and_lf_both_end_a_frame() -> None:
    d = Decoder()
    items = d.feed(encode_frame(1, "HB", "10").replace(b"\n", b"\r\n") + encode_frame(2, "HB", "20"))
    assert [f.seq for f in frames_of(items)] == [1, 2]
    assert len(items) == 2


def test_lowercase_checksum_is_refused_as_a_bad_frame() -> None:
    raw = next(r for r in (encode_frame(i, "DRAW", "5", "Ah") for i in range(100)) if not r[-3:-1].isdigit())
    low = raw[:-3] + raw[-3:-1].lower() + b"\n"
    items = Decoder().feed(low)
    assert not frames_of(items)
    assert items and isinstance(items[0], Issue)


def test_bad_checksum_names_the_frame_and_its_size_and_keeps_the_bytes_secret() -> None:
    items = Decoder().feed(b"$12,DRAW,5120,Kd*07\n")
    (issue,) = issues_of(items, Reason.BAD_CHECKSUM)
    assert issue.detail == "frame 12 (20 bytes): checksum does not match" and issue.seq == 12
    assert "Kd" in issue.secret and "checksum 07, computed 06" in issue.secret


def test_a_long_line_with_a_good_checksum_is_dropped_as_the_spec_says() -> None:
    body = b"1,FAULT,5," + b"X" * 990
    line = b"$%s*%02X\n" % (body, dps1.checksum(body))
    d = Decoder()
    items = d.feed(line + encode_frame(2, "HB", "7"))
    assert [f.seq for f in frames_of(items)] == [2]
    (garbage,) = issues_of(items, Reason.GARBAGE)
    assert garbage.detail == f"{len(line) - 1} bytes skipped before a frame"  # the LF is not counted
    # 200 bytes from '$' to LF is still a frame; 201 is not.
    for size, ok in ((200, True), (201, False)):
        pad = b"F" * (size - len(b"$3,FAULT,5,*00\n"))
        body = b"3,FAULT,5," + pad
        items = Decoder().feed(b"$%s*%02X\n" % (body, dps1.checksum(body)))
        assert bool(frames_of(items)) is ok, size


def test_every_split_point_gives_the_same_frames() -> None:
    stream = b"".join(encode_frame(i, "DRAW", str(i * 100), c) for i, c in enumerate(["Ah", "U:04A1B2", "?"]))
    for cut in range(len(stream) + 1):
        d = Decoder()
        items = d.feed(stream[:cut]) + d.feed(stream[cut:])
        assert [(f.seq, f.fields[1]) for f in frames_of(items)] == [(0, "Ah"), (1, "U:04A1B2"), (2, "?")]
        assert len(items) == 3


def test_garbage_is_reported_once_per_run_and_the_next_frame_survives() -> None:
    d = Decoder()
    items = d.feed(b"\x00\xffhello" + encode_frame(5, "HB", "1") + b"zz$7,DR" + encode_frame(8, "HB", "2"))
    assert [f.seq for f in frames_of(items)] == [5, 8]
    garbage = issues_of(items, Reason.GARBAGE)
    assert len(garbage) == 2
    assert garbage[0].detail == "7 bytes skipped before a frame"
    assert garbage[1].detail == "7 bytes skipped before a frame"  # b'zz' + the truncated b'$7,DR'
    assert garbage[1].secret == "b'zz$7,DR'"


def test_an_endless_line_without_newline_is_dropped_and_decoding_resumes() -> None:
    d = Decoder()
    items = d.feed(b"$" + b"A" * 5000)
    items += d.feed(encode_frame(9, "HB", "3"))
    assert [f.seq for f in frames_of(items)] == [9]
    assert issues_of(items, Reason.GARBAGE)


def test_interpret_checks_fields_and_names_them() -> None:
    assert dps1.interpret(Frame(1, "HELLO", ("1", "fw-2.1", "SHOE-7"))) == dps1.Hello(1, "1", "fw-2.1", "SHOE-7")
    assert dps1.interpret(Frame(2, "FAULT", ("9", "JAM"))) == dps1.Fault(2, 9, "JAM")
    bad = [
        (Frame(3, "DRAW", ("x", "Ah")), "ms", "'x'"),
        (Frame(3, "DRAW", ("5", "1h")), "card field", "card '1h'"),
        (Frame(3, "DRAW", ("5",)), "2 fields expected, got 1", "'5'"),
        (Frame(3, "HELLO", ("2", "fw", "id")), "another protocol version", "protocol version '2'"),
        (Frame(3, "HB", ()), "1 fields expected, got 0", "()"),
    ]
    for frame, words, secret in bad:
        try:
            dps1.interpret(frame)
        except dps1.FrameError as exc:
            assert words in str(exc) and exc.reason is Reason.BAD_FRAME
            assert secret in exc.secret and secret not in str(exc)
        else:
            raise AssertionError(f"{frame} accepted")
    try:
        dps1.interpret(Frame(4, "WHAT", ()))
    except dps1.FrameError as exc:
        assert exc.reason is Reason.UNKNOWN_TYPE
    else:
        raise AssertionError("unknown type accepted")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=30), st.randoms(use_true_random=False))
def test_random_bytes_between_valid_frames_never_hide_a_frame(noise: list[bytes], rnd: random.Random) -> None:
    """Every valid frame is found whatever garbage surrounds it, however the bytes are chunked."""
    stream = b""
    for i, junk in enumerate(noise):
        stream += junk + encode_frame(i, "HB", str(i))
    d = Decoder()
    items: list[object] = []
    pos = 0
    while pos < len(stream):
        step = rnd.randint(1, 64)
        items += d.feed(stream[pos:pos + step])
        pos += step
    got = [f for f in frames_of(items) if f.kind == "HB" and f.fields == (str(f.seq),)]
    assert [f.seq for f in got] == list(range(len(noise)))


# ---- sequencer ---------------------------------------------------------------------------

def hb(seq: int, ms: int = 0) -> Frame:
    return Frame(seq, "HB", (str(ms),))


def test_sequence_wraps_from_65535_to_0_without_a_gap() -> None:
    s = Sequencer()
    delivered = []
    for seq in (65534, 65535, 0, 1):
        step = s.accept(hb(seq), 0)
        assert not step.issues and not step.send
        delivered += [f.seq for f in step.deliver]
    assert delivered == [65534, 65535, 0, 1]


def test_gap_asks_resend_holds_later_frames_and_releases_them_in_order() -> None:
    s = Sequencer()
    s.accept(hb(10), 0)
    step = s.accept(hb(13), 5)
    assert step.deliver == [] and step.send == [dps1.encode_command("RESEND", "11")]
    assert step.issues[0].reason is Reason.GAP
    assert s.accept(hb(14), 6).deliver == []
    assert s.accept(hb(11), 7).deliver == [hb(11)]
    assert [f.seq for f in s.accept(hb(12), 8).deliver] == [12, 13, 14]
    # the shoe resends everything from 11 on: the copies are ignored
    assert s.accept(hb(13), 9).deliver == [] and s.duplicates == 1
    assert [f.seq for f in s.accept(hb(15), 10).deliver] == [15]


def test_frames_that_never_come_back_are_reported_missed_after_the_timeout() -> None:
    s = Sequencer(resend_timeout_ms=500)
    s.accept(hb(1), 0)
    s.accept(hb(4), 100)
    assert s.tick(599).issues == []
    step = s.tick(600)
    (issue,) = step.issues
    assert issue.reason is Reason.MISSED and "2 frames 2..3" in issue.detail
    assert [f.seq for f in step.deliver] == [4]
    assert s.lost == 2


def test_a_resent_frame_after_the_missing_ones_proves_them_gone() -> None:
    s = Sequencer()
    s.accept(hb(100), 0)
    s.accept(hb(103), 1)  # 101, 102 missing
    step = s.accept(hb(102), 2)  # the shoe resends from 102: it no longer had 101
    assert [i.reason for i in step.issues] == [Reason.MISSED]
    assert "frame 101" in step.issues[0].detail
    assert [f.seq for f in step.deliver] == [102, 103]


def test_a_huge_jump_is_followed_once_the_next_frame_confirms_it() -> None:
    s = Sequencer(resend_timeout_ms=500)
    s.accept(hb(5), 0)
    assert s.accept(hb(9000), 1).deliver == []  # set aside: one frame far ahead proves nothing
    step = s.accept(hb(9001), 2)
    # what the shoe can no longer have is reported at once; its last 64 frames are asked for
    assert [i.reason for i in step.issues] == [Reason.MISSED, Reason.GAP]
    assert step.missed == [range(6, 8936)] and step.send == [dps1.encode_command("RESEND", "8936")]
    step = s.tick(502)
    assert step.missed == [range(q, q + 1) for q in range(8936, 9000)]
    assert [f.seq for f in step.deliver] == [9000, 9001]


def test_numbers_far_behind_followed_by_their_next_are_a_restarted_shoe() -> None:
    s = Sequencer()
    for seq in range(500, 503):
        s.accept(hb(seq, 9000 + seq), 0)
    assert s.accept(hb(3, 40), 1).deliver == []
    step = s.accept(hb(4, 540), 2)
    # a shoe starts over from 0: frames 0..2 are asked for again
    assert [i.reason for i in step.issues] == [Reason.SHOE_RESTARTED]
    assert "asked the shoe to resend 3 frames 0..2" in step.issues[0].detail
    assert step.send == [dps1.encode_command("RESEND", "0")] and step.deliver == []
    hello = Frame(0, "HELLO", ("1", "fw", "id"))
    assert [f.seq for f in s.accept(hello, 3).deliver] == [0]
    assert s.accept(hb(1, 10), 3).deliver == [hb(1, 10)]
    assert [f.seq for f in s.accept(hb(2, 20), 3).deliver] == [2, 3, 4]
    # the rest of the answer are copies
    assert s.accept(hb(3, 40), 3).deliver == [] and s.duplicates == 1


frame_st = st.builds(
    Frame,
    st.integers(0, 65535) | st.integers(0, 80),
    st.sampled_from(["HELLO", "DRAW", "HB", "FAULT", "WHAT"]),
    st.lists(st.text(alphabet="0123456789AhKdU:?x-", max_size=8), max_size=4).map(tuple),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(frame_st, st.integers(0, 900)), max_size=60))
def test_any_frame_stream_is_handled_without_an_exception(stream: list[tuple[Frame, int]]) -> None:
    s = Sequencer(resend_timeout_ms=500)
    now = 0
    delivered = 0
    for frame, dt in stream:
        now += dt
        delivered += len(s.accept(frame, now).deliver) + len(s.tick(now).deliver)
        try:
            dps1.interpret(frame)
        except dps1.FrameError:
            pass
    delivered += len(s.tick(now + 10_000).deliver)
    assert not s.waiting  # after the timeout nothing is awaited any more
    assert delivered <= len(stream)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 65535), st.integers(1, 150), st.data())
def test_dropped_frames_that_the_shoe_resends_all_arrive_in_order(start: int, n: int, data: st.DataObject) -> None:
    seqs = [(start + i) % 65536 for i in range(n)]
    dropped = set(data.draw(st.lists(st.sampled_from(seqs[1:]), max_size=n // 3), label="dropped")) if n > 1 else set()
    history = {q: Frame(q, "HB", (str(i),)) for i, q in enumerate(seqs)}
    s = Sequencer()
    got: list[int] = []
    sent_upto = 0

    def answer(commands: list[bytes]) -> None:
        # a perfect shoe: everything kept, resent in order up to what it has sent so far
        for raw in commands:
            from_seq = int(raw[raw.index(b",") + 1:raw.index(b"*")])
            start_i = seqs.index(from_seq)
            for q in seqs[start_i:sent_upto]:
                step = s.accept(history[q], 0)
                got.extend(f.seq for f in step.deliver)
                assert not step.send and all(i.reason is not Reason.MISSED for i in step.issues)

    for i, q in enumerate(seqs):
        sent_upto = i + 1
        if q in dropped:
            continue
        step = s.accept(history[q], 0)
        got.extend(f.seq for f in step.deliver)
        answer(step.send)
    # drops at the very end go unnoticed until a later frame shows the gap
    last_seen = max(i for i, q in enumerate(seqs) if q not in dropped)
    assert got == seqs[: last_seen + 1]
    assert s.lost == 0
