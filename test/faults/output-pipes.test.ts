import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listManifests } from "../../src/act/trash/manifest.ts";
import { makeRepo } from "../helpers/repo.ts";
import { guardBinary, runBinary } from "./binary-under-test.ts";

// guard's answer through a pipe is complete, or the exit code says it is not. The compiled binary writes
// more than 1 MB to `| cat`, to a reader that sleeps between reads, to `| head -c` and to /dev/full; the
// bytes that arrive are compared with what the same command writes to a file.
let bin = "";
let root = "";
const work = mkdtempSync(join(tmpdir(), "guard-pipes-"));
let txid = "";

// A reader that takes 4 KiB at a time and sleeps between reads, keeping what it read.
const SLOW_READER = join(work, "slow-reader.ts");
writeFileSync(
  SLOW_READER,
  `import { readSync, writeFileSync } from "node:fs";
const buf = Buffer.alloc(4096); const parts = [];
for (;;) { let n = 0; try { n = readSync(0, buf, 0, buf.length, null); } catch (e) { if (e.code === "EAGAIN") { Bun.sleepSync(2); continue; } throw e; }
  if (n === 0) break; parts.push(Buffer.from(buf.subarray(0, n))); Bun.sleepSync(1); }
writeFileSync(process.argv[2], Buffer.concat(parts));
`,
);

interface Piped {
  guardCode: number;
  received: Buffer;
  stderr: string;
}

/** `guard <args> < input | <reader>` in bash, with guard's own exit code and stderr kept apart. */
async function pipe(args: string[], reader: "cat" | "slow" | "late" | "head", input = "/dev/null", limit = 1000): Promise<Piped> {
  const out = join(work, `out-${reader}`);
  const err = join(work, `err-${reader}`);
  const readers = { cat: `cat > "$OUT"`, slow: `"$BUN" "$SLOW" "$OUT"`, late: `{ sleep 1; cat > "$OUT"; }`, head: `head -c ${limit} > "$OUT"` };
  const script = `"$GUARD" "$@" < "$IN" 2> "$ERR" | ${readers[reader]}; echo "\${PIPESTATUS[0]}"`;
  const p = Bun.spawn(["bash", "-c", script, "pipe", ...args], {
    cwd: root,
    env: { ...process.env, GUARD: bin, IN: input, OUT: out, ERR: err, BUN: process.execPath, SLOW: SLOW_READER },
    stdout: "pipe",
    stderr: "inherit",
  });
  // A guard that hangs on a closed pipe fails here rather than at the test's timeout.
  const timer = setTimeout(() => p.kill(9), 90_000);
  const status = await new Response(p.stdout).text();
  await p.exited;
  clearTimeout(timer);
  return { guardCode: Number(status.trim()), received: readFileSync(out), stderr: readFileSync(err, "utf8") };
}

/** What the command writes when stdout is a file (the kernel takes it all at once). */
function toFile(args: string[], input = "/dev/null"): Buffer {
  const out = join(work, "to-file");
  const p = Bun.spawnSync(["bash", "-c", `"$GUARD" "$@" < "$IN" > "$OUT"`, "file", ...args], { cwd: root, env: { ...process.env, GUARD: bin, IN: input, OUT: out } });
  expect(p.exitCode).toBe(0);
  return readFileSync(out);
}

beforeAll(async () => {
  bin = await guardBinary();
  root = makeRepo();
  // 4,000 items with long names in one transaction: its show and list answers are each over 1 MB.
  const deep = join(root, "d".repeat(60), "e".repeat(60), "f".repeat(60));
  mkdirSync(deep, { recursive: true });
  const files = Array.from({ length: 4000 }, (_, i) => join(deep, `file-${String(i).padStart(4, "0")}-${"x".repeat(40)}.txt`));
  for (const f of files) writeFileSync(f, "x\n");
  const r = runBinary(bin, ["rm", "--", ...files], root);
  expect(r.code, r.stderr).toBe(0);
  txid = listManifests(root)[0]!.txid;
}, 600_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const commands: { name: string; args: () => string[]; input?: () => string }[] = [
  {
    name: "leak sanitize",
    args: () => ["leak", "sanitize", "--channel", "llm-request"],
    input: () => {
      const p = join(work, "payload.txt");
      writeFileSync(p, `${"an ordinary prompt line with nothing secret in it, repeated to be long ".repeat(15)}\n`.repeat(1000));
      return p;
    },
  },
  { name: "trash show --json", args: () => ["trash", "show", txid, "--json"] },
  { name: "trash list --json", args: () => ["trash", "list", "--json"] },
];

for (const c of commands)
  describe(`guard ${c.name}`, () => {
    let expected: Buffer = Buffer.alloc(0);
    let input = "/dev/null";
    beforeAll(() => {
      input = c.input?.() ?? "/dev/null";
      expected = toFile(c.args(), input);
      expect(expected.length).toBeGreaterThan(1_000_000);
    });

    for (const [reader, label] of [["cat", "| cat"], ["slow", "a reader that sleeps between reads"]] as const)
      test(`${label} receives every byte`, async () => {
        const r = await pipe(c.args(), reader, input);
        expect(r.stderr).toBe("");
        expect(r.guardCode).toBe(0);
        expect(r.received.length).toBe(expected.length);
        expect(r.received.equals(expected)).toBe(true);
      }, 120_000);

    test("> /dev/full (a full disk) is exit 1 with the reason, not success", () => {
      const p = Bun.spawnSync(["bash", "-c", `"$GUARD" "$@" < "$IN" > /dev/full`, "full", ...c.args()], { cwd: root, env: { ...process.env, GUARD: bin, IN: input }, stderr: "pipe" });
      expect(p.exitCode).toBe(1);
      expect(p.stderr.toString()).toMatch(/^guard: could not write the output \(ENOSPC\)/);
    });

    test("| head -c ends guard as SIGPIPE would: exit 141, no stack trace, no hang", async () => {
      const r = await pipe(c.args(), "head", input, 1000);
      expect(r.received.equals(expected.subarray(0, 1000))).toBe(true);
      expect(r.stderr).toBe("");
      expect(r.guardCode).toBe(141);
    }, 120_000);
  });

// Help comes from the command parser, which prints with console.info: it must meet the same rules.
describe("guard's help text", () => {
  for (const args of [["--help"], ["check", "--help"], []])
    test(`guard ${args.join(" ") || "(no command)"}: > /dev/full is exit 1 with the reason; | cat gets what a file gets`, async () => {
      const p = Bun.spawnSync(["bash", "-c", `"$GUARD" "$@" > /dev/full`, "full", ...args], { cwd: root, env: { ...process.env, GUARD: bin }, stderr: "pipe" });
      expect(p.exitCode).toBe(1);
      expect(p.stderr.toString()).toContain("guard: could not write the output (ENOSPC); it is incomplete\n");
      const expected = toFile(args);
      expect(expected.toString()).toContain("Usage:");
      const r = await pipe(args, "cat");
      expect(r.guardCode).toBe(0);
      expect(r.received.equals(expected)).toBe(true);
    }, 60_000);
});

// A hook call and --version write their answer without node's stdio streams (they cost a fresh process
// milliseconds); the same rules hold: every byte, or exit 1 with the reason, or 141 when the reader is gone.
const direct: { name: string; args: string[]; code: number; input?: () => string }[] = [
  { name: "--version", args: ["--version"], code: 0 },
  {
    name: "agent-event (a Cursor payload of the wrong shape: a JSON deny on stdout, the reason on stderr)",
    args: ["agent-event", "cursor", "before-shell-execution"],
    code: 2,
    input: () => {
      const p = join(work, "cursor-payload.json");
      writeFileSync(p, "{}\n");
      return p;
    },
  },
];

for (const c of direct)
  describe(`guard ${c.name}`, () => {
    test("| cat receives what a file receives, with the same exit code", async () => {
      const input = c.input?.() ?? "/dev/null";
      const expected = toFileWithCode(c.args, input, c.code);
      expect(expected.length).toBeGreaterThan(0);
      const r = await pipe(c.args, "cat", input);
      expect(r.guardCode).toBe(c.code);
      expect(r.received.equals(expected)).toBe(true);
    }, 120_000);

    test("> /dev/full is exit 1 with the reason", () => {
      const input = c.input?.() ?? "/dev/null";
      const p = Bun.spawnSync(["bash", "-c", `"$GUARD" "$@" < "$IN" > /dev/full`, "full", ...c.args], { cwd: root, env: { ...process.env, GUARD: bin, IN: input }, stderr: "pipe" });
      expect(p.exitCode).toBe(1);
      expect(p.stderr.toString()).toContain("guard: could not write the output (ENOSPC); it is incomplete\n");
    });

    test("a reader gone before the answer is written: exit 141, nothing on stderr about it", () => {
      const input = c.input?.() ?? "/dev/null";
      // The reader (`true`) is gone before guard starts; guard's own exit code goes to a file.
      const status = join(work, "direct-status");
      const p = Bun.spawnSync(["bash", "-c", `{ sleep 0.3; "$GUARD" "$@" < "$IN" 2> "$ERR"; echo $? > "$STATUS"; } | true`, "gone", ...c.args], { cwd: root, env: { ...process.env, GUARD: bin, IN: input, STATUS: status, ERR: join(work, "direct-err") } });
      expect(p.exitCode).toBe(0);
      expect(readFileSync(status, "utf8").trim()).toBe("141");
      expect(readFileSync(join(work, "direct-err"), "utf8")).not.toContain("could not write");
    });
  });

/** What the command writes to stdout when it is a file, checking its exit code. */
function toFileWithCode(args: string[], input: string, code: number): Buffer {
  const out = join(work, "to-file-direct");
  const p = Bun.spawnSync(["bash", "-c", `"$GUARD" "$@" < "$IN" > "$OUT"`, "file", ...args], { cwd: root, env: { ...process.env, GUARD: bin, IN: input, OUT: out } });
  expect(p.exitCode).toBe(code);
  return readFileSync(out);
}
// The answers written through the selection reporter's emit (check, run, explain, feedback --json) take the
// same exit path as guard's (src/cli/main.ts): the pipes watched first, the exit once stdout has ended.
// A 200 KiB answer on one line is more than a pipe holds, so a slow or late reader makes the writer wait.
describe("emit (check, run, explain --json) through a pipe", () => {
  const script = join(work, "emit.ts");
  beforeAll(() => {
    const src = (f: string) => JSON.stringify(join(import.meta.dir, "..", "..", "src", f));
    writeFileSync(
      script,
      `import { exitAfterOutput, watchPipes } from ${src("cli/output.ts")};
import { emit } from ${src("report/selection.ts")};
watchPipes();
await emit(JSON.stringify({ ids: Array.from({ length: 6000 }, (_, i) => "tests/test_calc.py::test_add_" + i).join(" ") }));
await exitAfterOutput(0);
`,
    );
  });
  const label = { cat: "| cat", slow: "a reader that sleeps between reads", late: "a reader that starts reading a second late" };
  for (const reader of ["cat", "slow", "late"] as const)
    test(`${label[reader]} receives one whole document`, async () => {
      const saved = bin;
      bin = process.execPath;
      try {
        const r = await pipe([script], reader);
        expect(r.guardCode).toBe(0);
        expect(r.received.length).toBeGreaterThan(3 * 65_536);
        // One document, not a cut-off copy followed by the whole one.
        expect((JSON.parse(r.received.toString("utf8")) as { ids: string }).ids.split(" ").length).toBe(6000);
      } finally {
        bin = saved;
      }
    }, 120_000);
});
