"""The floor over MQTT: 50 simulated tables through one Mosquitto, against a bare paho loop.

Part 1, floor update latency and CPU. ``--tables`` real tables (runtime,
journal, floor link, a simulated dealer each) play at real pace and then at
10x; the floor process takes their entries. Latency is the time from a
table journaling an entry to the floor having stored and applied it (both
clocks are this machine's). CPU is each process's user+system time over the
measured window, as a share of one core: the broker, the floor, and the
tables' process (all 50 tables together). The reference in the same run is a
bare paho publish-subscribe loop: as many publishers as tables, publishing
messages of the same size at the rate the tables did, and one subscriber.

Part 2, the broker away. Tables play at ``--outage-pace``; the broker is
stopped for ``--outage-s`` seconds and started again; the tables play on. At
the end every table's journal must be at the floor, each entry once: held
seqs 1..last for each table, no hole (0 lost) and no entry twice (0
duplicated; redelivered copies the floor dropped are counted apart). The
reference is bare paho (QoS 1, its own in-memory queue) through the same outage.

    python benchmarks/floor_mqtt.py [--tables 50] [--seconds 45] [--warmup 10] [--outage-s 30]

Journals are on /dev/shm when it exists (fsync there is cheap): the point is
the broker and the floor, not the disks of 50 Pis sharing one machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int | None) -> float:
    """User + system seconds used so far by ``pid`` (0 when gone)."""
    if not pid:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def pct(values: list[float], p: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


# ---------------------------------------------------------------------------------------------- processes


def floor_proc(url: str, room: str, store: str, tables: list[str], pipe: Any) -> None:
    """The floor process: takes the room's entries; on request sends its stats and clears its samples."""
    from dealer_pi.floor.floor_config import floor_config_from_dict
    from dealer_pi.floor.service import FloorService

    config, broker, base = floor_config_from_dict({"floor": {"broker": url, "room": room}, "store": {"path": store},
                                                   "tournament": {"tables": tables}}, Path(store).parent)
    svc = FloorService(config, broker, base).start()
    while True:
        cmd = pipe.recv()
        if cmd == "stop":
            svc.stop()
            pipe.send("stopped")
            return
        with svc.lock:
            lat, wire = list(svc.stats.latency_ms), list(svc.stats.wire_ms)
            if cmd == "reset":
                svc.stats.latency_ms.clear()
                svc.stats.wire_ms.clear()
            seqs = {t: svc.store.seqs(t) for t in svc.last} if cmd == "seqs" else {}
            pipe.send({"latency": lat, "wire": wire, "stats": svc.stats.to_json(), "seqs": seqs})


def tables_proc(url: str, room: str, names: list[str], pace: float, base: str, pipe: Any) -> None:
    """Real tables with simulated dealers, until told to stop; then reports each journal's last seq."""
    import logging

    logging.basicConfig(level=logging.ERROR)
    from dealer_pi.floor.link import TableLink
    from dealer_pi.floor.settings import Broker, TableLinkSettings, parse_broker
    from dealer_pi.floor.table_side import TableFloor
    from dealer_pi.runtime.engine_thread import Runtime
    from dealer_pi.sim.tournament_dealer import TournamentDealer

    host, port, _ = parse_broker(url)
    tables = []
    for name in names:
        i = int(name[1:])
        rt = Runtime(Path(base) / name / "journal.sqlite3", {"blinds": [25, 50], "button": 1,
                     "seats": {str(s): 5000 for s in range(1, 10)}}, stream_delay_s=30)
        rt.floor = TableFloor(room, name)
        rt.start()
        link = TableLink(rt, TableLinkSettings(Broker(host, port, keepalive_s=10), room, name), rt.floor).start()
        tables.append((rt, link, TournamentDealer(rt, 1000 + i, pace, name=name)))
    for _, _, dealer in tables:
        dealer.start()
    pipe.send("started")
    while True:
        cmd = pipe.recv()
        if cmd == "count":
            pipe.send(sum(rt.journal.last_seq() for rt, _, _ in tables))
            continue
        if cmd == "sizes":
            pipe.send(_sizes(tables[0][0]))
            continue
        break  # "stop": the dealers stop, the links catch up, then everything closes
    for _, _, dealer in tables:
        dealer.stop()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and any(link.confirmed < rt.journal.last_seq() for rt, link, _ in tables):
        time.sleep(0.2)
    pipe.send({rt.floor.table_id: (rt.journal.last_seq(), link.confirmed) for rt, link, _ in tables})
    for rt, link, _ in tables:
        link.stop()
        rt.stop()
    pipe.send("stopped")


def _sizes(rt: Any) -> float:
    from dealer_pi.floor.link import floor_event

    page = rt.journal.page_after(0, 500)
    sizes = [len(json.dumps({"seq": e.seq, "events": [floor_event(ev.body) for ev in evs]})) + 80 for e, evs in page]
    return statistics.mean(sizes) if sizes else 300.0


def sub_proc(url: str, topic: str, pipe: Any) -> None:
    """The bare reference's subscriber: latency from the timestamp in each payload; seqs per publisher."""
    import paho.mqtt.client as mqtt

    from dealer_pi.floor.settings import parse_broker

    host, port, _ = parse_broker(url)
    lat: list[float] = []
    seen: dict[str, list[int]] = {}
    lock = threading.Lock()

    def on_message(c: Any, u: Any, msg: Any) -> None:
        now = time.time() * 1000
        head = msg.payload[:60].split(b" ", 2)
        with lock:
            lat.append(now - float(head[1]))
            seen.setdefault(msg.topic, []).append(int(head[0]))

    def on_connect(c: Any, u: Any, f: Any, rc: Any, p: Any) -> None:
        c.subscribe(topic, 1)

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-sub")
    client.on_message, client.on_connect = on_message, on_connect
    client.reconnect_delay_set(1, 2)
    client.connect_async(host, port, keepalive=10)
    client.loop_start()
    while True:
        cmd = pipe.recv()
        with lock:
            pipe.send({"latency": list(lat), "seen": {t: list(v) for t, v in seen.items()}})
            if cmd == "reset":
                lat.clear()
        if cmd == "stop":
            client.loop_stop()
            return


def pub_proc(url: str, n: int, rate: float, size: int, pipe: Any) -> None:
    """The bare reference's publishers: ``n`` paho clients, ``rate`` messages/s each, ``size`` bytes."""
    import paho.mqtt.client as mqtt

    from dealer_pi.floor.settings import parse_broker

    host, port, _ = parse_broker(url)
    stop = threading.Event()
    sent = [0] * n

    def run(i: int) -> None:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-pub-{i}")
        c.reconnect_delay_set(1, 2)
        c.max_queued_messages_set(0)
        c.connect_async(host, port, keepalive=10)
        c.loop_start()
        pad = b"x" * max(0, size - 40)
        step, nxt, seq = 1.0 / rate, time.monotonic() + (i / n) / rate, 0
        while not stop.is_set():
            stop.wait(max(0.0, nxt - time.monotonic()))
            nxt += step
            seq += 1
            c.publish(f"bench/t{i}/events", f"{seq} {time.time() * 1000:.3f} ".encode() + pad, qos=1)
            sent[i] = seq
        time.sleep(5)  # let the queue drain
        c.loop_stop()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    pipe.send("started")
    pipe.recv()
    stop.set()
    for t in threads:
        t.join(20)
    pipe.send({f"bench/t{i}/events": sent[i] for i in range(n)})


# ---------------------------------------------------------------------------------------------- phases


class Tables:
    """The tables spread over ``procs`` processes (one Python process is one core, like... no Pi is)."""

    def __init__(self, url: str, n: int, pace: float, base: str, procs: int) -> None:
        names = [f"t{i + 1}" for i in range(n)]
        self.procs = [Proc(tables_proc, url, "bench", names[k::procs], pace, base) for k in range(min(procs, n))]
        for p in self.procs:
            p.recv()

    def count(self) -> int:
        return sum(p.ask("count") for p in self.procs)

    def stop(self) -> dict[str, Any]:
        for p in self.procs:
            p.parent.send("stop")
        out: dict[str, Any] = {}
        for p in self.procs:
            out.update(p.recv(180))
            p.recv(60)
        return out

    @property
    def pids(self) -> list[int | None]:
        return [p.pid for p in self.procs]


class Proc:
    def __init__(self, target: Any, *args: Any) -> None:
        ctx = mp.get_context("spawn")
        self.parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=target, args=(*args, child), daemon=True)
        self.proc.start()

    def ask(self, cmd: Any, timeout: float = 300) -> Any:
        self.parent.send(cmd)
        return self.recv(timeout)

    def recv(self, timeout: float = 300) -> Any:
        if not self.parent.poll(timeout):
            raise TimeoutError("a benchmark process did not answer")
        return self.parent.recv()

    @property
    def pid(self) -> int | None:
        return self.proc.pid


def measure(procs: dict[str, Any], seconds: float) -> dict[str, float]:
    """Each group's CPU over ``seconds``, in % of one core (a group is a pid or a list of pids)."""
    def used(p: Any) -> float:
        return sum(cpu_s(x) for x in p) if isinstance(p, list) else cpu_s(p)

    before = {k: used(p) for k, p in procs.items()}
    time.sleep(seconds)
    return {k: 100 * (used(p) - before[k]) / seconds for k, p in procs.items()}


def floor_phase(tmp: Path, n: int, pace: float, warmup: float, seconds: float, procs: int) -> dict[str, Any]:
    from dealer_pi.floor.broker import LocalBroker

    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp
    jdir = tempfile.mkdtemp(prefix="floor-bench-", dir=shm)
    broker = LocalBroker(tmp / f"broker-{pace}").start()
    names = [f"t{i + 1}" for i in range(n)]
    floor = Proc(floor_proc, broker.url, "bench", str(tmp / f"floor-{pace}.sqlite3"), names)
    tables = Tables(broker.url, n, pace, jdir, procs)
    time.sleep(warmup)
    floor.ask("reset")
    c0 = tables.count()
    cpu = measure({"broker": broker.pid, "floor": floor.pid, "tables": tables.pids}, seconds)
    c1 = tables.count()
    size = tables.procs[0].ask("sizes")
    report = floor.ask("report")
    tables.stop()
    floor.ask("stop")
    broker.stop()
    return {"latency": report["latency"], "wire": report["wire"], "cpu": cpu, "rate": (c1 - c0) / seconds, "size": size}


def bare_phase(tmp: Path, n: int, rate: float, size: float, warmup: float, seconds: float) -> dict[str, Any]:
    from dealer_pi.floor.broker import LocalBroker

    broker = LocalBroker(tmp / f"broker-bare-{rate:.0f}").start()
    sub = Proc(sub_proc, broker.url, "bench/+/events")
    time.sleep(1)
    pub = Proc(pub_proc, broker.url, n, max(rate / n, 0.01), int(size))
    pub.recv()
    time.sleep(warmup)
    sub.ask("reset")
    cpu = measure({"broker": broker.pid, "floor": sub.pid, "tables": pub.pid}, seconds)
    lat = sub.ask("report")["latency"]
    pub.parent.send("stop")
    pub.recv(60)
    sub.ask("stop")
    broker.stop()
    return {"latency": lat, "cpu": cpu, "rate": rate}


def outage(tmp: Path, n: int, pace: float, before: float, down: float, after: float, procs: int) -> dict[str, Any]:
    from dealer_pi.floor.broker import LocalBroker

    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp
    jdir = tempfile.mkdtemp(prefix="floor-outage-", dir=shm)
    broker = LocalBroker(tmp / "broker-outage").start()
    names = [f"t{i + 1}" for i in range(n)]
    floor = Proc(floor_proc, broker.url, "bench", str(tmp / "floor-outage.sqlite3"), names)
    tables = Tables(broker.url, n, pace, jdir, procs)
    time.sleep(before)
    broker.stop()
    t0 = time.monotonic()
    time.sleep(down)
    broker.start()
    back = time.monotonic() - t0
    time.sleep(after)
    journals = tables.stop()
    time.sleep(2)
    report = floor.ask("seqs")
    floor.ask("stop")
    broker.stop()
    lost = dup = entries = 0
    for name, (last, _) in journals.items():
        held = report["seqs"].get(name, [])
        entries += last
        lost += last - len(set(held))
        dup += len(held) - len(set(held))
    return {"down_s": back, "entries": entries, "lost": lost, "duplicated": dup, "stats": report["stats"]}


def bare_outage(tmp: Path, n: int, rate: float, before: float, down: float, after: float) -> dict[str, Any]:
    from dealer_pi.floor.broker import LocalBroker

    broker = LocalBroker(tmp / "broker-bare-outage").start()
    sub = Proc(sub_proc, broker.url, "bench/+/events")
    time.sleep(1)
    pub = Proc(pub_proc, broker.url, n, max(rate / n, 0.01), 300)
    pub.recv()
    time.sleep(before)
    broker.stop()
    time.sleep(down)
    broker.start()
    time.sleep(after)
    pub.parent.send("stop")
    sent = pub.recv(90)
    time.sleep(3)
    seen = sub.ask("stop")["seen"]
    broker.stop()
    total = sum(sent.values())
    lost = sum(sent[t] - len(set(seen.get(t, []))) for t in sent)
    dup = sum(len(v) - len(set(v)) for v in seen.values())
    return {"entries": total, "lost": lost, "duplicated": dup}


def blast_proc(url: str, clients: int, seconds: float, size: int, pipe: Any) -> None:
    """Publishers as fast as the broker takes QoS 1 messages (paho keeps 20 in flight each)."""
    import paho.mqtt.client as mqtt

    from dealer_pi.floor.settings import parse_broker

    host, port, _ = parse_broker(url)
    done = [0] * clients

    def run(i: int) -> None:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"blast-{i}")
        c.connect(host, port)
        c.loop_start()
        end, pad = time.monotonic() + seconds, b"x" * size
        while time.monotonic() < end:
            c.publish(f"bench/b{i}/events", f"0 {time.time() * 1000:.3f} ".encode() + pad, qos=1).wait_for_publish(5)
            done[i] += 1
        c.loop_stop()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pipe.send(sum(done))


def capacity(tmp: Path, seconds: float) -> dict[str, Any]:
    """One broker's ceiling here: QoS 1 messages of 300 bytes, 8 publishers, one subscriber."""
    from dealer_pi.floor.broker import LocalBroker

    broker = LocalBroker(tmp / "broker-capacity").start()
    sub = Proc(sub_proc, broker.url, "bench/+/events")
    time.sleep(1)
    before = cpu_s(broker.pid)
    blast = Proc(blast_proc, broker.url, 8, seconds, 300)
    sent = blast.recv(seconds + 60)
    broker_cpu = cpu_s(broker.pid) - before
    time.sleep(1)
    got = len(sub.ask("stop")["latency"])
    broker.stop()
    return {"sent": sent, "received": got, "rate": got / seconds, "broker_cpu_s": broker_cpu}


# ---------------------------------------------------------------------------------------------- report


def line(name: str, r: dict[str, Any], key: str = "latency") -> str:
    lat = r[key]
    c = r["cpu"]
    return (f"  {name:<34} {r['rate']:6.0f} msg/s  p50 {pct(lat, .5):6.1f} ms  p99 {pct(lat, .99):7.1f} ms  "
            f"CPU broker {c['broker']:5.1f} %  floor {c['floor']:5.1f} %  tables {c['tables']:5.1f} %  (n={len(lat)})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=45, help="measured seconds per phase")
    ap.add_argument("--warmup", type=float, default=10)
    ap.add_argument("--paces", default="1,10")
    ap.add_argument("--outage-s", type=float, default=30)
    ap.add_argument("--outage-pace", type=float, default=3)
    ap.add_argument("--skip-outage", action="store_true")
    ap.add_argument("--procs", type=int, default=2, help="processes the tables are spread over (default 2)")
    ap.add_argument("--capacity-s", type=float, default=15, help="seconds of the broker's ceiling probe (0: skip)")
    args = ap.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="floor-bench-") as d:
        tmp = Path(d)
        print(f"floor over MQTT: {args.tables} tables, one Mosquitto, {args.seconds:g} s measured per phase "
              f"(after {args.warmup:g} s warm-up), {os.cpu_count()} CPUs")
        load = os.getloadavg()[0]
        print(f"  load average at start: {load:.1f} (the machine is shared)")
        for pace in [float(p) for p in args.paces.split(",")]:
            real = floor_phase(tmp, args.tables, pace, args.warmup, args.seconds, args.procs)
            bare = bare_phase(tmp, args.tables, real["rate"], real["size"], args.warmup, args.seconds)
            print(f"pace {pace:g}x (messages of about {real['size']:.0f} bytes; the tables in {args.procs} processes):")
            print(line("dealer-pi journal -> floor shows it", real))
            print(line("dealer-pi link publish -> floor", real, "wire"))
            print(line("bare paho publish -> subscriber", bare))
            ratio50 = pct(real["latency"], .5) / max(pct(bare["latency"], .5), 1e-9)
            ratio99 = pct(real["latency"], .99) / max(pct(bare["latency"], .99), 1e-9)
            print(f"  ratio dealer-pi / bare: p50 {ratio50:.1f}x, p99 {ratio99:.1f}x, "
                  f"broker CPU {real['cpu']['broker'] / max(bare['cpu']['broker'], 0.1):.1f}x, "
                  f"floor vs subscriber CPU {real['cpu']['floor'] / max(bare['cpu']['floor'], 0.1):.1f}x")
        if args.capacity_s:
            cap = capacity(tmp, args.capacity_s)
            per = 1e6 * cap["broker_cpu_s"] / max(cap["received"], 1)
            print(f"one broker pushed hard: {cap['rate']:.0f} QoS 1 messages/s of 300 bytes delivered (8 publishers "
                  f"waiting for each PUBACK, 1 subscriber), broker {100 * cap['broker_cpu_s'] / args.capacity_s:.0f} % "
                  f"of a core: {per:.0f} us of broker CPU per message in and out, about {1e6 / max(per, 1):.0f} "
                  "messages/s per broker core")
        if not args.skip_outage:
            o = outage(tmp, args.tables, args.outage_pace, 15, args.outage_s, 20, args.procs)
            rate = o["entries"] / (35 + args.outage_s)
            b = bare_outage(tmp, args.tables, rate, 15, args.outage_s, 20)
            s = o["stats"]
            print(f"broker stopped {o['down_s']:.0f} s during play ({args.tables} tables at {args.outage_pace:g}x):")
            print(f"  dealer-pi: {o['entries']} entries journaled, {o['lost']} lost, {o['duplicated']} duplicated at the "
                  f"floor (redelivered copies dropped: {s['duplicates']}, resend requests: {s['resends']})")
            print(f"  bare paho QoS 1: {b['entries']} published, {b['lost']} lost, {b['duplicated']} duplicated at the "
                  "subscriber")
    print(f"total run: {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
