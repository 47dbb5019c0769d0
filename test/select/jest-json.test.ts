import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJestJson } from "../../src/act/runners/jest-json.ts";

describe("JavaScript runner results", () => {
  test("name files relative to a repository reached through a symlink", () => {
    const base = mkdtempSync(join(tmpdir(), "guard-jsonids-"));
    try {
      const real = join(base, "real");
      mkdirSync(join(real, "test"), { recursive: true });
      writeFileSync(join(real, "test", "a.test.js"), "");
      const link = join(base, "link");
      symlinkSync(real, link);
      // The runner reports the real path, guard ran it from the symlinked root.
      const json = JSON.stringify({ testResults: [{ name: join(real, "test", "a.test.js"), assertionResults: [{ ancestorTitles: ["suite"], title: "works", status: "passed", duration: 3 }] }] });
      const [r] = parseJestJson(link, json);
      expect(r?.file).toBe("test/a.test.js");
      expect(r?.id).toBe("test/a.test.js::suite > works");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
