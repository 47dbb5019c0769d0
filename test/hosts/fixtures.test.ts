// Every captured-shape payload under fixtures/hosts/<host>/<name>.json is answered by the real handler
// and compared with its golden answer in fixtures/hosts/<host>/golden/<name>.json.
// UPDATE_GOLDENS=1 rewrites the goldens (review the diff before committing).
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { handleAgentEvent } from "../../src/hosts/handle.ts";
import { HOSTS, findEvent, findHost } from "../../src/hosts/registry.ts";
import { clearStopState } from "../../src/hosts/stop-gate.ts";
import { makeRepo } from "../helpers/repo.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "hosts");
const update = process.env.UPDATE_GOLDENS === "1";
let root = "";
const home = homedir();

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
  root = makeRepo({ "README.md": "fixture\n", "src/app.py": "a = 1\n" });
});

interface Golden {
  exitCode: number;
  stdout: unknown;
  stderr: string;
  decision: string;
  code: string;
}

const cases = HOSTS.flatMap((h) => {
  const dir = join(FIXTURES, h.id);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
  return files.map((f) => ({ host: h.id, name: f.replace(/\.json$/, ""), event: f.split(".")[0]! }));
});

describe("fixtures cover every host and event", () => {
  for (const h of HOSTS)
    test(`${h.id}: one fixture per event at least`, () => {
      const names = new Set(cases.filter((c) => c.host === h.id).map((c) => c.event));
      expect([...names].sort()).toEqual(h.events.map((e) => e.id).sort());
    });
  test("every fixture names a known host event", () => {
    for (const c of cases) expect(findEvent(findHost(c.host)!, c.event)?.id).toBe(c.event);
  });
});

describe("golden answers", () => {
  for (const c of cases)
    test(`${c.host}/${c.name}`, async () => {
      const raw = readFileSync(join(FIXTURES, c.host, `${c.name}.json`), "utf8").replaceAll("$ROOT", root);
      clearStopState(root); // each stop fixture starts from no previous run
      const r = await handleAgentEvent(c.host, c.event, raw, { processCwd: root });
      const out = r.answer.stdout.trim();
      const got: Golden = {
        exitCode: r.answer.exitCode,
        stdout: out ? JSON.parse(out) : "",
        stderr: r.answer.stderr.replaceAll(root, "$ROOT"),
        decision: r.verdict.decision,
        code: r.verdict.code,
      };
      const goldenPath = join(FIXTURES, c.host, "golden", `${c.name}.json`);
      if (update) {
        mkdirSync(join(FIXTURES, c.host, "golden"), { recursive: true });
        writeFileSync(goldenPath, `${JSON.stringify(got, null, 2).replaceAll(root, "$ROOT").replaceAll(home, "$USER_HOME")}\n`);
      }
      // The user's home shows in answers about `rm -rf ~`: goldens name it $USER_HOME, so they hold on any machine.
      const golden = JSON.parse(readFileSync(goldenPath, "utf8").replaceAll("$ROOT", root).replaceAll("$USER_HOME", home)) as Golden;
      expect(got).toEqual(golden);
    });
});

describe("answers keep each host's contract", () => {
  test("a host that cannot ask never gets an ask; one that can gets one", async () => {
    for (const h of HOSTS) {
      const f = cases.find((c) => c.host === h.id && c.name.endsWith(".ask"));
      if (!f) continue;
      const raw = readFileSync(join(FIXTURES, h.id, `${f.name}.json`), "utf8").replaceAll("$ROOT", root);
      const r = await handleAgentEvent(h.id, f.event, raw, { processCwd: root });
      expect(r.verdict.decision).toBe(h.canAsk ? "ASK" : "BLOCK");
      if (!h.canAsk) expect(r.verdict.reason).toContain("cannot ask");
    }
  });

  test("every blocking fixture is blocked on the host's wire (exit 2 or a deny in JSON)", async () => {
    for (const c of cases) {
      const raw = readFileSync(join(FIXTURES, c.host, `${c.name}.json`), "utf8").replaceAll("$ROOT", root);
      const r = await handleAgentEvent(c.host, c.event, raw, { processCwd: root });
      if (r.verdict.decision !== "BLOCK" || r.event?.event === "stop") continue;
      const wire = `${r.answer.exitCode} ${r.answer.stdout}`;
      expect(r.answer.exitCode === 2 || /"(deny)"/.test(wire)).toBe(true);
    }
  });

  test("an unknown host or event is blocked with the reason, never a crash", async () => {
    const a = await handleAgentEvent("nope", "pre-tool-use", "{}", { processCwd: root });
    expect(a.answer.exitCode).toBe(2);
    expect(a.answer.stderr).toContain("unknown host");
    const b = await handleAgentEvent("claude-code", "nope", "{}", { processCwd: root });
    expect(b.answer.exitCode).toBe(2);
    expect(b.answer.stderr).toContain("unknown event");
  });

  test("every answer is logged with host, event, session, decision, reason and latency", async () => {
    const raw = readFileSync(join(FIXTURES, "claude-code", "pre-tool-use.json"), "utf8").replaceAll("$ROOT", root);
    await handleAgentEvent("claude-code", "pre-tool-use", raw, { processCwd: root });
    const lines = readFileSync(join(root, ".guard", "events.jsonl"), "utf8").trim().split("\n");
    const last = JSON.parse(lines.at(-1)!);
    expect(last).toMatchObject({ type: "hook.pre-shell", host: "claude-code", event: "pre-shell", session: "cc-session-1", decision: "BLOCK", code: "SHELL_PROTECTED_ROOT" });
    expect(typeof last.latencyMs).toBe("number");
    expect(typeof last.reason).toBe("string");
  });
});
