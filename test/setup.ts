// Preloaded by bun test (bunfig.toml). Keep tests from touching the developer's real ~/.guard.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

if (!process.env.GUARD_TEST_KEEP_HOME) {
  process.env.GUARD_HOME = mkdtempSync(join(tmpdir(), "guard-home-"));
}
