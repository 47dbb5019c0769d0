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

/** `--- PASS: TestX (0.01s)` lines of `-test.v` output, top-level tests only. */
export function parseVerboseResults(text: string): Map<string, { outcome: "passed" | "failed" | "skipped"; durationMs: number }> {
  const out = new Map<string, { outcome: "passed" | "failed" | "skipped"; durationMs: number }>();
  for (const m of text.matchAll(/^--- (PASS|FAIL|SKIP): ([^\s/]+) \(([\d.]+)s\)$/gm)) {
    out.set(m[2]!, { outcome: m[1] === "PASS" ? "passed" : m[1] === "FAIL" ? "failed" : "skipped", durationMs: Number(m[3]) * 1000 });
  }
  return out;
}
