// Preloaded by bun test (bunfig.toml). Keep tests from touching the developer's real ~/.guard.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

if (!process.env.GUARD_TEST_KEEP_HOME) {
  process.env.GUARD_HOME = mkdtempSync(join(tmpdir(), "guard-home-"));
}

// Background evidence refresh (src/act/evidence-refresh.ts) would start test runs behind every test that
// runs guard on a clean tree; the tests of that feature turn it on for themselves.
process.env.GUARD_EVIDENCE_REFRESH ??= "0";
