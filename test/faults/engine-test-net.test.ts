// The test suite's own safety net: servers a test leaves running are stopped when its `bun test` exits.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serversOn, waitFor } from "../helpers/servers.ts";

const REPO = resolve(import.meta.dir, "../..");

test("servers a test leaves running are stopped when the test process exits", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "guard-net-")), "left.json");
  const env: Record<string, string | undefined> = { ...process.env, LEFT_SERVERS_FILE: file, GUARD_TEST_RUN: undefined, GUARD_HOME: undefined };
  const run = Bun.spawn([process.execPath, "test", "./test/faults/fixtures/leaves-servers.ts"], { cwd: REPO, env: env as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(run.stderr).text(), run.exited]);
  expect(err).toContain("1 pass");
  expect(code).toBe(0);
  const sockets: string[] = JSON.parse(readFileSync(file, "utf8"));
  expect(sockets).toHaveLength(3);
  expect(await waitFor(() => sockets.every((s) => serversOn(s).length === 0), 10_000)).toBe(true);
  expect(err).toMatch(/test\/setup.ts: stopped [3-9] engine process\(es\) the tests left running/); // three servers, and a watchdog
}, 120_000);
