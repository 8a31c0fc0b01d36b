"""Turn the harness's results into pass/fail, a summary, docs/RELIABILITY.md and benchmark sections."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# Bugs this harness found in the sync engine, each fixed with a test in tests/test_stress.py.
FINDINGS = (
    (
        "crash injection",
        "A SIGKILL after the local commit but before the manifest was saved left files the "
        "next run treated as pending forever, so a later local deletion was undone by the store.",
        "livefiles: files already equal to the store are recorded whatever their state.",
    ),
    (
        "crash injection",
        "After the same kind of crash, a live file whose edit the store already held never "
        "received later remote changes (a teammate's line missing on one machine).",
        "sync: only edits the merge did not take (blocked by validation) stay pending.",
    ),
    (
        "crash injection",
        "Kills during materialization left `.x.md.memsync-PID.tmp` files in Claude Code's "
        "memory directories for good.",
        "livefiles: a marker present while writing makes the next run sweep them.",
    ),
    (
        "hostile corpus",
        "A folder `x.md/` replaced by a file `x.md` made every pull crash with "
        "IsADirectoryError (stuck for good); a name over 255 bytes crashed with ENAMETOOLONG.",
        "livefiles: deletions before writes; a file the file system refuses is skipped and named.",
    ),
    (
        "hostile corpus",
        "A file name that is not UTF-8 was materialized under an undecodable name.",
        "safety: such names are skipped and printed escaped (`caf\\xe9.md`).",
    ),
    (
        "hostile corpus",
        "A teammate's file named `ctl\\x01char.md` made every merge with it in its history crash "
        "(the commit-time parser split on `\\x01`): pull stuck for good.",
        "gitcmd.change_times: whole NUL-separated tokens only.",
    ),
    (
        "concurrent pushers",
        "A push that lost the race inside the server (`cannot lock ref ... but expected`) was "
        "taken for a refusal by a server hook: exit 1, no retry.",
        "gitcmd.push: treated as a lost race (fetch, merge, retry).",
    ),
    (
        "concurrent pushers",
        "Retries 0.05-0.25 s x attempt kept 20 pushers in lockstep: 14 of 20 gave up after "
        "5 attempts (60 of 200 memories on the remote).",
        "sync: full-jitter backoff over a doubling window of attempt slots; "
        "`push_retries` 5 -> 10.",
    ),
    (
        "latency benchmark",
        "A session start with nothing new listed each store's tree, ran `git config` and "
        "`git maintenance` per store, fetched with protocol v2 (two round trips), parsed the "
        "YAML config twice and imported the check rules; writing 1,000 files paid an fsync "
        "and a journal commit each.",
        "clean-manifest fast path, origin read from the clone's config, maintenance only "
        "after refs moved, protocol v0 for fetch, config loaded once and cached as JSON, "
        "lazy imports, one `sync()` for a batch of writes.",
    ),
)


def _crash(results: dict[str, Any]) -> dict[str, Any] | None:
    crash = results.get("crash")
    return crash["summary"] if crash else None


def failures(results: dict[str, Any]) -> list[str]:
    """Every broken promise in RESULTS, one line each."""
    out: list[str] = []
    summary = _crash(results)
    if summary:
        for key in ("lost", "remote_lost", "manual_repairs", "markers", "recovery_failures"):
            if summary[key]:
                out.append(f"crash injection: {key} = {summary[key]}")
    for kind in results.get("hostile", []):
        if not kind["ok"]:
            out.append(f"hostile {kind['name']}: {'; '.join(kind['problems'])[:300]}")
    pushers = results.get("pushers")
    if pushers:
        if pushers["on_remote"] != pushers["expected"]:
            out.append(f"pushers: {pushers['on_remote']}/{pushers['expected']} on the remote")
        if pushers["forced_updates"]:
            out.append(f"pushers: {pushers['forced_updates']} forced updates")
        out += [f"pushers: {p}" for p in pushers["problems"]]
    for case in results.get("samestore", []):
        if not case["consistent"]:
            out.append(f"same store, {case['case']}: {'; '.join(case['problems'])[:300]}")
    for fault in results.get("net", []):
        if not fault["ok"]:
            out.append(
                f"network {fault['fault']} {fault['command']} {fault['mode']}: {'; '.join(fault['problems'])}"
            )
    for ratio in results.get("latency", []):
        if not ratio["ok"]:
            out.append(
                f"speed: {ratio['name']}: {ratio['ratio']:.2f}x over the {ratio['limit']}x limit"
            )
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def latency_sections(results: dict[str, Any]) -> str:
    """The "Sync latency" and "Sync throughput" sections of docs/BENCHMARKS.md."""
    ratios = results.get("latency", [])
    lines = [
        "## Sync latency",
        "",
        "`python benchmarks/run_stress.py --only latency` (part of the stress harness; see",
        "[RELIABILITY.md](RELIABILITY.md)). Medians of interleaved repetitions in one run, memsync",
        "against the plain git commands it replaces, timed side by side. Each store holds 50",
        "memories; the baselines are ordinary clones with work trees.",
        "",
        f"Measured {results.get('started', '')} on {results.get('machine', '')}.",
        "",
        "| what | memsync | baseline | ratio | limit |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    throughput = [r for r in ratios if "changed memories" in r["name"]]
    for r in ratios:
        if r in throughput:
            continue
        baseline = "2 × `git pull`" + (" (sequential)" if "proxy" in r["name"] else "")
        lines.append(
            f"| `memsync pull --hook`, {r['name'].split(', ', 1)[1]} | {_ms(r['memsync_s'])} | "
            f"{_ms(r['baseline_s'])} ({baseline}) | {r['ratio']:.2f}× | {r['limit']}× |"
        )
    for r in ratios:
        notes = r.get("notes") or {}
        if "git_processes" in notes:
            lines += [
                "",
                f"One `memsync pull --hook` with nothing new starts {notes['git_processes']} git "
                f"processes for the two stores (counted with `GIT_TRACE`), and its imports take "
                f"{notes['import_ms']} ms (`python -X importtime`; slowest: "
                + ", ".join(f"{name} {ms:.0f} ms" for name, ms in notes["slowest_imports"])
                + ").",
            ]
    lines += [
        "",
        "What keeps a session start short: the two stores are fetched at once, one thread each;",
        'fetch speaks protocol v0, whose ref advertisement answers "anything new?" in one round',
        "trip (v2 needs two); heads, HEAD and the origin URL are read from the clone's files;",
        "when the head has not moved and no memory was edited, the manifest's *clean* flag",
        "skips the tree listing and every write; `git maintenance` runs only after refs moved;",
        "the hook path bypasses the CLI framework, loads the config once from a JSON cache of",
        "the YAML, and imports the validation rules only when there are edits to validate.",
        "",
        "## Sync throughput",
        "",
        "`python benchmarks/run_stress.py --only latency`: a teammate changes 1,000 memories and",
        "pushes; `memsync pull` brings them into the live directory, against `git pull` of the",
        "same commits in a plain clone plus copying the project folder. memsync writes each file",
        "atomically (temporary file, rename) and makes the batch durable with one `sync()`",
        "before the renames, instead of an fsync per file (which cost 2 s for 1,000 files); a",
        "good part of what remains is printing one line per updated memory on the terminal.",
        "",
        "| what | memsync | baseline | ratio | limit |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in throughput:
        lines.append(
            f"| `memsync pull`, {r['name'].removeprefix('pull bringing ')} | {_ms(r['memsync_s'])} | "
            f"{_ms(r['baseline_s'])} | {r['ratio']:.2f}× | {r['limit']}× |"
        )
    return "\n".join(lines) + "\n"


def reliability(results: dict[str, Any]) -> str:
    """docs/RELIABILITY.md."""
    out = [
        "# Reliability",
        "",
        "memsync promises (SPEC §4) that nothing is lost, no conflict markers are written and a",
        "crash never leaves it stuck. `benchmarks/run_stress.py` checks those promises under",
        "faults and load, with the real `memsync` command run as separate simulated machines",
        "(own HOME, Claude and memsync directories, git identity) against bare remotes on disk",
        "and behind `git daemon` plus a TCP proxy of ours that adds delay and stalls, drops or",
        "refuses connections (127.0.0.1 only). Run it with:",
        "",
        "```",
        "python benchmarks/run_stress.py            # everything, ~30-60 min on 2 CPUs",
        "python benchmarks/run_stress.py --quick    # small sizes, a few minutes",
        "python benchmarks/run_stress.py --only crash,net --crash-runs 50",
        "```",
        "",
        "It exits 1 when any promise fails, writes `benchmarks/results/stress-latest.json`, and with",
        "`--write-docs` regenerates this file. A fast subset runs with the tests",
        "(`tests/test_stress.py`).",
        "",
        f"Figures below: {'quick' if results.get('quick') else 'full'} run of {results.get('started', '')}, "
        f"{results.get('machine', '')}, {results.get('seconds', 0):.0f} s in all.",
    ]
    summary = _crash(results)
    if summary:
        label = {"startup": "before any git (start-up, lock, scan, validation)"}
        phases = ", ".join(
            f"{label.get(k, k)} {v}" for k, v in summary["phases"].items() if k != "finished"
        )
        commands = ", ".join(f"{k} {v}" for k, v in sorted(summary["commands"].items()))
        out += [
            "",
            "## Crash injection",
            "",
            "A peer machine pushes (so fetch and merge have work), the victim adds, edits and deletes",
            "memories (1 to 256 per run, 300 B to 120 KB each, both scopes, plus lines appended to",
            "memories both machines edit) and starts `pull`, `push` or `sync`; after a random delay",
            "(mostly past Python's start-up, scaled to that command's measured duration at that size)",
            "it is killed with SIGKILL:",
            "the whole process group (a power loss) in 80% of runs, only memsync in 20% (its git",
            "children live on and race the next run). In 30% of runs Claude Code appends to a memory",
            "meanwhile. The victim then runs a plain `memsync sync`, which must succeed by itself.",
            "Every fact line either machine ever wrote is checked in the victim's live directory, on",
            "the remotes and, at the end, on the peer. Phases come from the killed process's",
            "`GIT_TRACE` (the last git command it had started); a kill before the first git command",
            "lands while Python starts, takes the lock, scans the live directory or validates edits",
            "(secret scan included), which is most of a short run.",
            "",
            "| | count |",
            "| --- | ---: |",
            f"| runs killed with SIGKILL | {summary['killed']} |",
            f"| runs that finished before the kill (not counted as crashes) | {summary['finished_before_kill']} |",
            f"| calibration runs (not killed) | {summary['runs'] - summary['killed'] - summary['finished_before_kill']} |",
            f"| kills by phase | {phases} |",
            f"| runs by command | {commands} |",
            f"| **memories (or lines of them) lost** | **{summary['lost']}** (remote: {summary['remote_lost']}) |",
            f"| **runs that needed a manual repair** | **{summary['manual_repairs']}** |",
            f"| **conflict markers** | **{summary['markers']}** |",
            f"| recoveries whose first `sync` did not exit 0 | {summary['recovery_failures']} |",
            f"| temporary files left in a memory directory | {summary['leftover_files']} |",
        ]
    hostile = results.get("hostile")
    if hostile:
        passed = sum(1 for k in hostile if k["ok"])
        out += [
            "",
            "## Hostile team repository",
            "",
            "A teammate writes objects straight into the team remote (raw trees, so names git would",
            "never `add` are possible), each kind on top of the good memories so far. The victim",
            "pulls (`--json`), then pushes a memory of its own. Each time: exit 0 and no traceback,",
            "every good file synced byte for byte, each bad one named among the skipped files, no",
            "symlink materialized, nothing created or changed anywhere in the sandbox outside the",
            "memory directories (a canary folder is the target of every escape attempt), and the",
            "victim's push reaches the remote.",
            "",
            f"{passed} of {len(hostile)} kinds pass.",
            "",
            "| kind | result | files named as skipped | seconds |",
            "| --- | --- | ---: | ---: |",
        ]
        for k in hostile:
            state = "ok" if k["ok"] else "FAIL: " + "; ".join(k["problems"])[:200]
            out.append(f"| {k['name']} | {state} | {len(k['skipped'])} | {k['seconds']:.1f} |")
    pushers = results.get("pushers")
    if pushers:
        codes = ", ".join(f"exit {c}: {n}" for c, n in sorted(pushers["exit_codes"].items()))
        out += [
            "",
            "## Concurrent pushers",
            "",
            f"{pushers['machines']} machines each write {pushers['memories_each']} team memories and",
            "start `memsync push --scope team` at the same moment, against one team remote served by",
            f"`git daemon` behind the proxy ({pushers['rtt_ms']:.0f} ms RTT). The remote's `update` hook logs",
            "every ref update and whether it was a fast-forward.",
            "",
            "| | |",
            "| --- | ---: |",
            f"| memories on the remote afterwards | {pushers['on_remote']} of {pushers['expected']} |",
            f"| machines holding all of them after one more pull | {pushers['converged_machines']} of {pushers['machines']} |",
            f"| ref updates / forced (non-fast-forward) | {pushers['ref_updates']} / {pushers['forced_updates']} |",
            f"| exit codes | {codes} |",
            f"| push latency p50 / p95 / max | {pushers['latency_p50']} s / {pushers['latency_p95']} s / {pushers['latency_max']} s |",
            f"| push attempts per machine, median / max | {pushers['attempts_p50']} / {pushers['attempts_max']} |",
            f"| retries in all (rejected pushes that fetched, merged and tried again) | {pushers['retries_total']} |",
        ]
    same = results.get("samestore")
    if same:
        out += [
            "",
            "## Two processes on one store",
            "",
            "Two memsync processes start together on one machine (two Claude Code sessions opening",
            "at once, a pull racing a push, ...) over the same stores, with hundreds of memories so",
            "the first still holds the lock when the second asks. Afterwards: `git fsck` on each",
            "clone, no lock file left, the next `sync` exits 0 and every memory is on the remote.",
            "",
            "| case | exit codes | lock waited on or reported | consistent |",
            "| --- | --- | --- | --- |",
        ]
        for case in same:
            out.append(
                f"| {case['case']} | {', '.join(str(c) for c in case['exit_codes'])} | "
                f"{'yes' if case['lock_reported'] else 'waited silently'} | "
                f"{'yes' if case['consistent'] else 'NO: ' + '; '.join(case['problems'])[:200]} |"
            )
    net = results.get("net")
    if net:
        out += [
            "",
            "## Network faults",
            "",
            "Both stores behind `git daemon` and the fault proxy; before each fault the peer pushes",
            "90 KB and the victim writes 20 memories. *unreachable*: connections accepted and never",
            "answered; *refused*: nothing listens; *stalled*: the proxy stops forwarding after the",
            "first bytes of the pack (fetch) or of the upload (push); *dropped*: reset mid-pack.",
            "Hook limits are set to 3 s (pull) and 4 s (push) for the test. After each fault the",
            "network comes back and a normal `sync` must deliver the victim's work.",
            "",
            "| fault | command | mode | exit | seconds | limit | result |",
            "| --- | --- | --- | ---: | ---: | ---: | --- |",
        ]
        for f in net:
            limit = f"{f['limit']:.0f} s" if f["limit"] else "-"
            state = "ok" if f["ok"] else "FAIL: " + "; ".join(f["problems"])
            out.append(
                f"| {f['fault']} | {f['command']} | {f['mode']} | {f['exit_code']} | "
                f"{f['seconds']:.1f} | {limit} | {state} |"
            )
    out += [
        "",
        "## What the harness found",
        "",
        "Each finding became a failing test in `tests/test_stress.py`, then a fix in the sync modules.",
        "",
        "| found by | problem | fix |",
        "| --- | --- | --- |",
    ]
    out += [f"| {who} | {what} | {fix} |" for who, what, fix in FINDINGS]
    return "\n".join(out) + "\n"


def summary(results: dict[str, Any]) -> str:
    """A short human summary for the terminal."""
    lines = []
    s = _crash(results)
    if s:
        lines.append(
            f"crash injection: {s['killed']} killed runs, lost {s['lost']}, manual repairs "
            f"{s['manual_repairs']}, markers {s['markers']}, phases {s['phases']}"
        )
    if results.get("hostile"):
        h = results["hostile"]
        lines.append(f"hostile corpus: {sum(k['ok'] for k in h)}/{len(h)} kinds ok")
    if results.get("pushers"):
        p = results["pushers"]
        lines.append(
            f"pushers: {p['on_remote']}/{p['expected']} on remote, forced {p['forced_updates']}, "
            f"p50 {p['latency_p50']} s, p95 {p['latency_p95']} s, retries {p['retries_total']}"
        )
    if results.get("samestore"):
        lines.append(
            f"same store: {sum(c['consistent'] for c in results['samestore'])}/{len(results['samestore'])} ok"
        )
    if results.get("net"):
        lines.append(
            f"network faults: {sum(f['ok'] for f in results['net'])}/{len(results['net'])} ok"
        )
    for r in results.get("latency", []):
        lines.append(f"{r['name']}: {r['ratio']:.2f}x (limit {r['limit']}x)")
    return "\n".join(lines)


def write_docs(results: dict[str, Any], docs: Path) -> None:
    """Rewrite docs/RELIABILITY.md; replace the sync sections of docs/BENCHMARKS.md."""
    if results.get("crash") or results.get("hostile"):
        (docs / "RELIABILITY.md").write_text(reliability(results), encoding="utf-8")
    if not results.get("latency"):
        return
    bench = docs / "BENCHMARKS.md"
    text = bench.read_text(encoding="utf-8") if bench.exists() else "# Benchmarks\n"
    section = latency_sections(results)
    pattern = re.compile(r"^## Sync latency\n.*?(?=^## (?!Sync throughput)|\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    bench.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
