// The optional LLM review against loopback HTTP servers that stand in for each API's shape (an
// OpenAI-compatible /v1/chat/completions, the Anthropic /v1/messages), and a stand-in agent CLI.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildGateRepo, edit, removeRepo } from "../../fixtures/gate/build.ts";
import { partitionDiff } from "../../src/decide/gate/llm/partition.ts";
import { llmReview } from "../../src/decide/gate/llm/review.ts";
import type { FileChange } from "../../src/decide/gate/types.ts";
import { GUARD_MAIN, guard } from "../helpers/repo.ts";

/** guard as a child process without blocking this process's event loop (the stand-in server lives here). */
async function guardAsync(args: string[], cwd: string, env: Record<string, string> = {}) {
  const p = Bun.spawn([process.execPath, GUARD_MAIN, ...args], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: any;
}

/** A loopback stand-in for a model API: records each request, answers with `reply(body)`. */
function standIn(reply: (body: any, n: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.json();
      seen.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body });
      return reply(body, seen.length);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) };
}
const servers: { stop(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.stop()));

const openaiReply = (content: string) => Response.json({ id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
const anthropicReply = (text: string) => Response.json({ id: "msg", type: "message", role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" });

const change = (path: string, after: string, before = ""): FileChange => ({ path, status: "modified", before, after, added: after.split("\n").map((t, i) => ({ line: i + 1, text: t })) });
const CHANGES = [change("app/a.py", "def a():\n    return 1\n", "def a():\n    return 0\n")];

describe("OpenAI-compatible endpoint", () => {
  test("request shape, key from the environment, a high security finding blocks", async () => {
    const s = standIn(() => openaiReply(JSON.stringify({ findings: [{ file: "app/a.py", line: 2, severity: "high", category: "security", message: "returns a constant token" }] })));
    servers.push(s);
    process.env.GATE_TEST_KEY = "test-key-value";
    const r = await llmReview({ provider: "openai", url: `${s.url}/v1`, model: "stand-in", apiKeyEnv: "GATE_TEST_KEY" }, "make a return 1", CHANGES);
    delete process.env.GATE_TEST_KEY;
    expect(s.seen[0]!.path).toBe("/v1/chat/completions");
    expect(s.seen[0]!.headers.authorization).toBe("Bearer test-key-value");
    expect(s.seen[0]!.body.model).toBe("stand-in");
    expect(s.seen[0]!.body.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    expect(s.seen[0]!.body.messages[1].content).toContain("Task: make a return 1");
    expect(r.ran).toBe(true);
    expect(r.findings).toEqual([{ code: "LLM-SECURITY", pillar: "llm", severity: "hard", file: "app/a.py", line: 2, message: "high: returns a constant token" }]);
    expect(JSON.stringify(r)).not.toContain("test-key-value");
  });

  test("only critical/high correctness or security block; the rest is shown", async () => {
    const s = standIn(() =>
      openaiReply(
        JSON.stringify({
          findings: [
            { file: "app/a.py", line: null, severity: "high", category: "style", message: "naming" },
            { file: "app/a.py", line: 1, severity: "medium", category: "correctness", message: "edge case" },
            { file: "app/a.py", line: 1, severity: "critical", category: "correctness", message: "wrong result" },
          ],
        }),
      ),
    );
    servers.push(s);
    const r = await llmReview({ provider: "openai", url: s.url }, "t", CHANGES);
    expect(r.findings.map((f) => f.severity)).toEqual(["info", "warn", "hard"]);
  });

  test("an HTTP error, a reply that is not the findings JSON, and a timeout all mean no LLM review, with the reason", async () => {
    const down = standIn(() => new Response("overloaded", { status: 503 }));
    const prose = standIn(() => openaiReply("Looks good to me!"));
    const wrong = standIn(() => openaiReply(JSON.stringify({ findings: [{ file: "a", severity: "urgent", category: "security", message: "x" }] })));
    const slow = standIn(async () => {
      await Bun.sleep(3000);
      return openaiReply('{"findings": []}');
    });
    servers.push(down, prose, wrong, slow);
    expect((await llmReview({ provider: "openai", url: down.url }, "t", CHANGES)).note).toBe("no LLM review: openai failed on part 1 of 1: 127.0.0.1:" + new URL(down.url).port + " answered HTTP 503");
    expect((await llmReview({ provider: "openai", url: prose.url }, "t", CHANGES)).note).toBe("no LLM review: openai part 1 of 1: the reply holds no JSON object");
    const w = await llmReview({ provider: "openai", url: wrong.url }, "t", CHANGES);
    expect(w.ran).toBe(false);
    expect(w.note).toContain("does not match the findings schema at `findings.0.severity`");
    const t = await llmReview({ provider: "openai", url: slow.url, timeoutSeconds: 1 }, "t", CHANGES);
    expect(t).toEqual({ ran: false, note: "no LLM review: openai failed on part 1 of 1: timed out after 1 s", findings: [] });
  });

  test("the diff is partitioned on file boundaries: one request per part, whole files only", async () => {
    const big = (n: number) => change(`src/f${n}.py`, `${"x = 1\n".repeat(60)}`, "");
    const parts = partitionDiff([big(1), big(2), big(3)], 900);
    expect(parts.map((p) => p.files)).toEqual([["src/f1.py"], ["src/f2.py"], ["src/f3.py"]]);
    const s = standIn(() => openaiReply('{"findings": []}'));
    servers.push(s);
    const r = await llmReview({ provider: "openai", url: s.url, maxPartBytes: 900 }, "t", [big(1), big(2), big(3)]);
    expect(s.seen.length).toBe(3);
    for (const [i, req] of s.seen.entries()) {
      const user = req.body.messages[1].content as string;
      expect(user).toContain(`Files in this part: src/f${i + 1}.py`);
      expect(user).toContain(`+++ b/src/f${i + 1}.py`);
    }
    expect(r.note).toContain("3 part(s)");
  });
});

describe("Anthropic API", () => {
  test("request shape (x-api-key, anthropic-version, system), JSON inside a code fence", async () => {
    const s = standIn(() => anthropicReply('```json\n{"findings": [{"file": "app/a.py", "line": 1, "severity": "medium", "category": "maintainability", "message": "magic number"}]}\n```'));
    servers.push(s);
    process.env.GATE_TEST_ANTHROPIC = "anthropic-test-key";
    const r = await llmReview({ provider: "anthropic", url: s.url, model: "stand-in", apiKeyEnv: "GATE_TEST_ANTHROPIC" }, "t", CHANGES);
    delete process.env.GATE_TEST_ANTHROPIC;
    const req = s.seen[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("anthropic-test-key");
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(typeof req.body.system).toBe("string");
    expect(req.body.max_tokens).toBeGreaterThan(0);
    expect(r.findings.map((f) => [f.code, f.severity])).toEqual([["LLM-MAINTAINABILITY", "warn"]]);
  });

  test("no key in the environment: no LLM review, and it says which variable", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const r = await llmReview({ provider: "anthropic", url: "http://127.0.0.1:9" }, "t", CHANGES);
    expect(r.note).toBe("no LLM review: ANTHROPIC_API_KEY is not set (keys come from the environment only)");
  });
});

describe("a local agent CLI", () => {
  test("gets the prompt on stdin and answers JSON on stdout (stand-in script)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-agent-"));
    const script = join(dir, "agent");
    writeFileSync(script, `#!/bin/sh\nprompt=$(cat)\ncase "$prompt" in *"Task: review me"*) echo '{"findings": [{"file": "app/a.py", "line": 2, "severity": "critical", "category": "correctness", "message": "off by one"}]}';; *) echo '{"findings": []}';; esac\n`);
    chmodSync(script, 0o755);
    const r = await llmReview({ provider: "command", command: [script] }, "review me", CHANGES);
    expect(r.findings.map((f) => [f.code, f.severity, f.line])).toEqual([["LLM-CORRECTNESS", "hard", 2]]);
    const failing = await llmReview({ provider: "command", command: ["false"] }, "t", CHANGES);
    expect(failing.note).toBe("no LLM review: command failed on part 1 of 1: false exited 1");
  });
  test("a wrapper whose children outlive it is bounded by the timeout, and its whole group is killed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-agent-slow-"));
    const script = join(dir, "agent");
    const pidFile = join(dir, "child.pid");
    // A wrapper script that starts a long child holding stdout, as agent CLIs behind wrappers do.
    writeFileSync(script, `#!/bin/sh\nsleep 30 &\necho $! > ${pidFile}\nwait\n`);
    chmodSync(script, 0o755);
    const started = Date.now();
    const r = await llmReview({ provider: "command", command: [script], timeoutSeconds: 1 }, "t", CHANGES);
    const took = Date.now() - started;
    expect(r.note).toBe("no LLM review: command failed on part 1 of 1: timed out after 1 s");
    expect(took).toBeLessThan(15_000);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await Bun.sleep(200);
    // Gone, or a zombie nobody has reaped yet: either way no longer running.
    const state = (() => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0];
      } catch {
        return "gone";
      }
    })();
    expect(["gone", "Z"]).toContain(state ?? "gone");
  });
});

describe("guard post with guard config llm", () => {
  const repos: string[] = [];
  afterAll(() => repos.forEach(removeRepo));

  test("runs when no hard finding decided, blocks on its high security finding; skipped when hard findings decide", async () => {
    const s = standIn(() => openaiReply('{"findings": [{"file": "app/dates.py", "line": 11, "severity": "high", "category": "security", "message": "unsafe"}]}'));
    servers.push(s);
    const root = buildGateRepo({ gate: { graph: "never", tests: false, build: false } });
    repos.push(root);
    const cfg = guard(["config", "llm", "--provider", "openai", "--url", `${s.url}/v1`, "--model", "stand-in", "--key-env", "GATE_CLI_KEY"], root);
    expect(cfg.code).toBe(0);
    expect(guard(["config", "llm", "--provider", "openai", "--key", "abc"], root).code).toBe(64);
    guard(["pre", "simplify", "--scope", "app/dates.py"], root);
    edit(root, "app/dates.py", (t) => t.replace('value.strftime("%Y-%m-%d")', "value.date().isoformat()"));
    const r = await guardAsync(["post"], root, { GATE_CLI_KEY: "cli-secret-key" });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("LLM-SECURITY app/dates.py:11 high: unsafe");
    expect(r.stdout).toContain("llm review: openai stand-in: 1 part(s), 1 finding(s), 1 blocking");
    expect(r.stdout + r.stderr).not.toContain("cli-secret-key");
    expect(s.seen.length).toBe(1);
    edit(root, "app/stamp.py", (t) => `${t}\n`);
    const decided = await guardAsync(["post"], root);
    expect(decided.stdout).toContain("no LLM review: the hard findings above already decide");
    expect(s.seen.length).toBe(1);
  }, 60_000);
});
