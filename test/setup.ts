// Preloaded by bun test (bunfig.toml). Keep tests from touching the developer's real ~/.guard, and keep
// everything a run creates in one temporary folder, whose servers are stopped when the run exits.
import { afterAll } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { killStrays } from "./helpers/strays.ts";

if (!process.env.GUARD_TEST_RUN) {
  const runDir = mkdtempSync(join(tmpdir(), "guard-test-run-"));
  process.env.TMPDIR = runDir;
  process.env.GUARD_TEST_RUN = basename(runDir);
  // A preload's afterAll runs once, after every test file of the run (bun test fires no "exit" event);
  // an interrupted run (Ctrl-C) gets the same.
  const net = () => {
    const n = killStrays(runDir, basename(runDir));
    if (n > 0) process.stderr.write(`test/setup.ts: stopped ${n} engine process(es) the tests left running\n`);
  };
  afterAll(net);
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => {
      net();
      process.exit(130);
    });
}

if (!process.env.GUARD_TEST_KEEP_HOME) {
  process.env.GUARD_HOME = mkdtempSync(join(tmpdir(), "guard-home-"));
}

// Background evidence refresh (src/act/evidence-refresh.ts) would start test runs behind every test that
// runs guard on a clean tree; the tests of that feature turn it on for themselves.
process.env.GUARD_EVIDENCE_REFRESH ??= "0";
