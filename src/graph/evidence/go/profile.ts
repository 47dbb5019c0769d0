/** One block of a Go cover profile (`mode: set` / `count` / `atomic`): `importpath/file.go:l1.c1,l2.c2 statements count`. */
export interface CoverBlock {
  /** The file as the profile names it. */
  file: string;
  startLine: number;
  endLine: number;
  count: number;
}

export function parseCoverBlocks(text: string): CoverBlock[] {
  const out: CoverBlock[] = [];
  for (const line of text.split("\n")) {
    const m = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(line.trim());
    if (m) out.push({ file: m[1]!, startLine: Number(m[2]), endLine: Number(m[3]), count: Number(m[4]) });
  }
  return out;
}

/** File (as the profile names it) → executed lines: every line of a block that ran. */
export function parseCoverProfile(text: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const b of parseCoverBlocks(text)) {
    if (b.count === 0) continue;
    let set = out.get(b.file);
    if (!set) out.set(b.file, (set = new Set()));
    for (let l = b.startLine; l <= b.endLine; l++) set.add(l);
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
