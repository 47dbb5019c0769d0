// Preloaded by bun test (bunfig.toml). Keep tests from touching the developer's real ~/.guard, and stop
// the engines a run leaves running when it ends (test/helpers/strays.ts).
import { afterAll } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killStrays, removeAtEnd, removeScratch, trackHome } from "./helpers/strays.ts";

if (!process.env.GUARD_TEST_KEEP_HOME) {
  process.env.GUARD_HOME = mkdtempSync(join(tmpdir(), "guard-home-"));
  trackHome(process.env.GUARD_HOME);
  removeAtEnd(process.env.GUARD_HOME);
}

if (!process.env.GUARD_TEST_RUN) {
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  process.env.GUARD_TEST_RUN = runId;
  // A preload's afterAll runs once, after every test file of the run (bun test fires no "exit" event);
  // an interrupted run (Ctrl-C) gets the same.
  const net = () => {
    const n = killStrays(runId);
    if (n > 0) process.stderr.write(`test/setup.ts: stopped ${n} engine process(es) the tests left running\n`);
    removeScratch();
  };
  afterAll(net);
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => {
      net();
      process.exit(sig === "SIGINT" ? 130 : 143);
    });
}
