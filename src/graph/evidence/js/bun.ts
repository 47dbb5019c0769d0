import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { cores, runPool } from "../pool.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { addLines, emptyEvidence, type Evidence, type Outcome } from "../types.ts";
import { tracked } from "../../../state/process-tree.ts";

/**
 * bun test: its coverage cannot be taken at test boundaries from inside the process (bun is not V8 and
 * has no inspector coverage), so each test FILE runs alone with `--coverage` and every test in it is
 * credited with the whole file's lines: per-test-file evidence, granularity "file", lower confidence.
 */

const TEST_FILE = /(\.|_)(test|spec)\.(c|m)?(j|t)sx?$/;
const SKIP_DIRS = new Set(["node_modules", ".git", ".guard", "dist", "build", "coverage"]);

/** Test files bun would pick up, repo-relative to `dir`, sorted. */
export function bunTestFiles(dir: string, sub = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) out.push(...bunTestFiles(dir, rel));
    } else if (TEST_FILE.test(e.name)) out.push(rel);
  }
  return out.sort();
}

/** lcov `SF:` / `DA:line,count` → file (as written) → executed lines. */
export function parseLcov(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let file: string | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("SF:")) {
      file = line.slice(3).trim();
      out.set(file, out.get(file) ?? []);
    } else if (line.startsWith("DA:") && file) {
      const [l, count] = line.slice(3).split(",");
      if (Number(count) > 0) out.get(file)!.push(Number(l));
    } else if (line.startsWith("end_of_record")) file = undefined;
  }
  return out;
}

const unescapeXml = (s: string) =>
  s.replace(/&(#x?[0-9a-fA-F]+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e === "amp" ? "&" : e === "lt" ? "<" : e === "gt" ? ">" : e === "quot" ? '"' : e === "apos" ? "'" : String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]!) : undefined;
};

export interface JunitCase {
  /** "describe > inner > name". */
  id: string;
  outcome: Outcome;
  durationMs: number;
}

/** bun's JUnit report: nested <testsuite> elements below the file's are describe blocks. */
export function parseJunit(xml: string): JunitCase[] {
  const out: JunitCase[] = [];
  const suites: string[] = [];
  let current: JunitCase | undefined;
  for (const m of xml.matchAll(/<(\/?)(testsuites|testsuite|testcase|failure|error|skipped)\b([^>]*?)(\/?)>/g)) {
    const [, close, tag, body, selfClosing] = m;
    if (tag === "testsuite") {
      if (close) suites.pop();
      else if (!selfClosing) suites.push(attr(body!, "name") ?? "");
    } else if (tag === "testcase") {
      if (close) current = undefined;
      else {
        const names = [...suites.slice(1), attr(body!, "name") ?? ""];
        current = { id: names.join(" > "), outcome: "passed", durationMs: Number(attr(body!, "time") ?? 0) * 1000 };
        out.push(current);
        if (selfClosing) current = undefined;
      }
    } else if (current && !close && (tag === "failure" || tag === "error")) current.outcome = "failed";
    else if (current && !close && tag === "skipped") current.outcome = "skipped";
  }
  return out;
}

export interface BunOptions {
  root: string;
  dir: string;
  /** Only these test files (repo-relative). */
  files?: string[];
  parallel?: number;
}

export async function recordBun(opts: BunOptions): Promise<Evidence> {
  const local = join(opts.dir, "node_modules", ".bin", "bun");
  const bun = existsSync(local) ? local : Bun.which("bun");
  if (!bun) throw toolMissing("bun", "PATH or node_modules/.bin", "npm install --save-dev bun");
  const rel = (p: string) => relative(opts.root, join(opts.dir, p)).split("\\").join("/");
  const files = opts.files ? opts.files.map((f) => relative(opts.dir, join(opts.root, f)).split("\\").join("/")) : bunTestFiles(opts.dir);
  const work = mkdtempSync(join(tmpdir(), "guard-bun-"));
  const ev = emptyEvidence();
  const failures: string[] = [];
  try {
    const jobs = files.map((file, i) => async () => {
      const out = join(work, String(i));
      const proc = tracked(Bun.spawn(
        [bun, "test", "--coverage", "--coverage-reporter=lcov", `--coverage-dir=${out}`, "--reporter=junit", `--reporter-outfile=${join(out, "junit.xml")}`, `./${file}`],
        { cwd: opts.dir, stdout: "pipe", stderr: "pipe" },
      ));
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (!existsSync(join(out, "junit.xml"))) {
        failures.push(`${file} (exit ${code}: ${tail(stderr || stdout, 1)})`);
        return;
      }
      const lines = existsSync(join(out, "lcov.info")) ? parseLcov(readFileSync(join(out, "lcov.info"), "utf8")) : new Map<string, number[]>();
      for (const c of parseJunit(readFileSync(join(out, "junit.xml"), "utf8"))) {
        const id = `${rel(file)}::${c.id}`;
        ev.tests.push({ id, selector: c.id, file: rel(file), name: c.id.split(" > ").pop() ?? c.id, framework: "bun:test", outcome: c.outcome, durationMs: c.durationMs });
        ev.granularity[id] = "file";
        const cov = (ev.coverage[id] ??= {});
        if (c.outcome !== "skipped") for (const [f, ls] of lines) if (!f.startsWith("/") && !f.startsWith("..")) addLines(cov, rel(f), ls);
      }
    });
    await runPool(jobs, opts.parallel ?? cores());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (failures.length > 0) throw recordingFailed(`bun test gave no report for ${failures.length} file(s)`, failures.slice(0, 2).join("; "), "run `bun test` by hand and fix what fails to load");
  ev.tests.sort((a, b) => a.id.localeCompare(b.id));
  ev.notes.push("bun test: per-test-file evidence (bun's coverage cannot be taken per test), marked granularity 'file' with lower confidence");
  return ev;
}
