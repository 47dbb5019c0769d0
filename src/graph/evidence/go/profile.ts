/**
 * A Go cover profile (`mode: set` / `count` / `atomic`): `importpath/file.go:l1.c1,l2.c2 statements count`.
 * Returns file (as the profile names it) → executed lines.
 */
export function parseCoverProfile(text: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const line of text.split("\n")) {
    const m = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(line.trim());
    if (!m || m[4] === "0") continue;
    const file = m[1]!;
    let set = out.get(file);
    if (!set) out.set(file, (set = new Set()));
    for (let l = Number(m[2]); l <= Number(m[3]); l++) set.add(l);
  }
  return out;
}

/** `go test -list` output → package import path → test names. */
export function parseTestList(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let pending: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const done = /^(ok|FAIL|\?)\s+(\S+)/.exec(line);
    if (done) {
      if (pending.length > 0) out.set(done[2]!, pending);
      pending = [];
    } else if (/^(Test|Example|Fuzz)\w*$/.test(line)) pending.push(line);
  }
  return out;
}

/** `--- PASS: TestX (0.01s)` lines of `-test.v` output, top-level tests only. */
export function parseVerboseResults(text: string): Map<string, { outcome: "passed" | "failed" | "skipped"; durationMs: number }> {
  const out = new Map<string, { outcome: "passed" | "failed" | "skipped"; durationMs: number }>();
  for (const m of text.matchAll(/^--- (PASS|FAIL|SKIP): ([^\s/]+) \(([\d.]+)s\)$/gm)) {
    out.set(m[2]!, { outcome: m[1] === "PASS" ? "passed" : m[1] === "FAIL" ? "failed" : "skipped", durationMs: Number(m[3]) * 1000 });
  }
  return out;
}
