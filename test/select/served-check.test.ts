// `guard check` answered by the resident worker: while a worker of this build runs, the CLI's check is
// decided there (warm code, the engine's connection kept open) and must be exactly the answer the CLI
// would give alone, across a working session: an edit, the same tree again, a commit and another edit, an
// engine that went away in between. Whenever the worker could decide differently (other guard settings in
// the environment, git steered to another index) or answers something unusable, the CLI decides itself.
// guard runs as whole processes from source; the worker is real, the stand-in at its socket is named as such.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import { join } from "node:path";
import { python } from "../../fixtures/select/python.ts";
import { helloFrom, spawnWorker, stopWorker } from "../../src/code/worker/client.ts";
import { workerIdentity, workerSocketPath } from "../../src/code/worker/paths.ts";
import { gitSteered } from "../../src/decide/select/served-check.ts";
import { stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { guardHome } from "../../src/state/paths.ts";
import { GIT_ENV, guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { standIn } from "../helpers/worker-stand-in.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
let root: string;
// git variables other test files of the run leave set (GIT_CONFIG_GLOBAL=/dev/null) would rightly make the CLI
// decide itself: this file plays a user's shell, which has none.
const steering = Object.entries(process.env).filter(([k]) => gitSteered({ [k]: "" }));
beforeAll(async () => {
  for (const [k] of steering) delete process.env[k];
  engine = await startTestEngine();
  root = await preparedProject(python);
  // A worker another test file left in this GUARD_HOME started with that file's environment: not ours.
  await stopWorker(guardHome());
}, 240_000);
afterAll(async () => {
  await stopWorker(guardHome());
  await engine?.stop();
  await stopEmbedded(guardHome()).catch(() => {});
  for (const [k, v] of steering) process.env[k] = v;
});

interface Answer {
  cached: boolean;
  level: string;
  tests: { id: string }[];
  fault?: { code: string };
}
/** `guard check --json` with the worker allowed; `served`: whether the worker's answer was used. */
function check(env: Record<string, string> = {}): { answer: Answer; served: boolean } {
  const r = guard(["check", "--json"], root, { env: { GUARD_PARSE_WORKER: "1", GUARD_TIMINGS: "1", ...env } });
  expect(r.code).toBe(0);
  const timings = JSON.parse(r.stderr.trim().split("\n").findLast((l) => l.startsWith('{"timings"')) ?? "{}");
  return { answer: JSON.parse(r.stdout).data, served: timings.served !== undefined };
}
const inProcess = () => check({ GUARD_PARSE_WORKER: "0" });
const ids = (a: Answer) => a.tests.map((t) => t.id).sort();
const forget = () => rmSync(join(root, ".guard", "select-cache.json"), { force: true });
function edit(path: string, from: string, to: string) {
  const p = join(root, path);
  const text = readFileSync(p, "utf8");
  expect(text).toContain(from);
  writeFileSync(p, text.replace(from, to));
}
async function liveWorker(): Promise<number> {
  spawnWorker(guardHome(), ["python"], 120);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const hello = await helloFrom(workerSocketPath(guardHome()), 1000);
    if (hello) return hello.pid;
    await Bun.sleep(50);
  }
  throw new Error("no worker came up");
}

describe("guard check served by the resident worker", () => {
  test("a session: each answer is the one the CLI decides alone, edit after edit, commit after commit", async () => {
    await liveWorker();
    edit("shop/users.py", 'return user.get("role") == "admin"', 'return user.get("role") == "owner"');
    const alone = inProcess();
    expect(alone.served).toBe(false);
    forget();
    const served = check();
    expect(served.served).toBe(true);
    expect(served.answer.cached).toBe(false);
    expect(served.answer.level).toBe("subset");
    expect(ids(served.answer)).toEqual(ids(alone.answer));
    expect(ids(served.answer)).toContain("tests/test_users.py::test_is_admin");
    // The same tree again: the worker answers from the cache the CLI keeps.
    const again = check();
    expect(again.served && again.answer.cached).toBe(true);
    expect(ids(again.answer)).toEqual(ids(alone.answer));

    // A commit moves HEAD: the worker brings the graph forward and slices the next edit against the new base.
    sh(["git", "commit", "-qam", "owner is the admin role"], root, GIT_ENV);
    edit("shop/users.py", "return email.strip().lower()", "return email.strip().upper()");
    const next = check();
    expect(next.served).toBe(true);
    expect(next.answer.fault).toBeUndefined();
    expect(next.answer.level).toBe("subset");
    expect(ids(next.answer)).toContain("tests/test_users.py::test_normalize_email");
    expect(ids(next.answer)).not.toContain("tests/test_users.py::test_is_admin");
    forget();
    expect(ids(inProcess().answer)).toEqual(ids(next.answer));
  }, 240_000);

  test("an engine that stopped between checks: the worker's kept connection is dropped and the engine started again", async () => {
    await liveWorker();
    edit("shop/users.py", "return email.strip().upper()", "return email.strip().title()");
    expect(check().served).toBe(true);
    await stopEmbedded(guardHome());
    edit("shop/users.py", "return email.strip().title()", "return email.strip().casefold()");
    const after = check();
    expect(after.served).toBe(true);
    expect(after.answer.fault).toBeUndefined();
    expect(ids(after.answer)).toContain("tests/test_users.py::test_normalize_email");
  }, 240_000);

  test("new evidence between two checks of the same tree: the worker's kept graph answers are not reused", async () => {
    await liveWorker();
    edit("shop/users.py", "return email.strip().casefold()", "return email.strip().lstrip()");
    const before = check();
    expect(before.served).toBe(true);
    expect(ids(before.answer)).not.toContain("tests/test_money.py::test_round_cents");
    // Teach selection that a pricing test depends on the edited function (a graph write that bumps the epoch).
    const fed = guard(["feedback", "--function", "shop/users.py::normalize_email", "--test", "tests/test_money.py::test_round_cents"], root);
    expect(fed.code).toBe(0);
    const after = check();
    expect(after.served).toBe(true);
    expect(after.answer.cached).toBe(false);
    expect(ids(after.answer)).toContain("tests/test_money.py::test_round_cents");
  }, 240_000);

  test("other guard settings, or git steered to another index: the CLI decides itself", async () => {
    await liveWorker();
    edit("shop/users.py", "return email.strip().lstrip()", "return email.strip().swapcase()");
    const other = check({ GUARD_ENGINE_IDLE_SECONDS: "900" });
    expect(other.served).toBe(false);
    expect(ids(other.answer)).toContain("tests/test_users.py::test_normalize_email");
    forget();
    // A git hook's GIT_INDEX_FILE names another index; the worker runs git without it.
    const steered = check({ GIT_INDEX_FILE: join(root, ".git", "index") });
    expect(steered.served).toBe(false);
    expect(ids(steered.answer)).toEqual(ids(other.answer));
    // Who commits, or how git reaches a remote, changes nothing a check reads.
    forget();
    const neutral = check({ GIT_AUTHOR_NAME: "someone", GIT_SSL_CAINFO: "/dev/null" });
    expect(neutral.served).toBe(true);
    expect(ids(neutral.answer)).toEqual(ids(other.answer));
  }, 240_000);

  test("a worker that answers with something unusable, or an error: the CLI decides itself", async () => {
    await stopWorker(guardHome());
    const servers: Server[] = [];
    try {
      // Stand-in for the worker (loopback, at its socket): says the right hello, then answers badly.
      let reply: (id: unknown) => unknown = (id) => ({ id, result: { cached: true, selection: { level: "subset" } } });
      await standIn(servers, workerSocketPath(guardHome()), workerIdentity(), (req, conn) => conn.write(`${JSON.stringify(reply(req.id))}\n`));
      edit("shop/users.py", "return email.strip().swapcase()", "return email.strip().lower()[::-1]");
      const r1 = check();
      expect(r1.served).toBe(false);
      expect(r1.answer.cached).toBe(false);
      expect(ids(r1.answer)).toContain("tests/test_users.py::test_normalize_email");
      reply = (id) => ({ id, error: "boom" });
      forget();
      const r2 = check();
      expect(r2.served).toBe(false);
      expect(ids(r2.answer)).toEqual(ids(r1.answer));
    } finally {
      for (const s of servers) s.close();
    }
  }, 240_000);
});
