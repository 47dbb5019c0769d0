import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, validateConfig } from "../../src/state/config.ts";
import { isGuardError } from "../../src/kernel/errors.ts";
import { makeRepo } from "../helpers/repo.ts";

function errorLine(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isGuardError(e)) return e.oneLine();
    throw e;
  }
  throw new Error("expected an error");
}

describe("config", () => {
  test("a valid config loads and later files override earlier ones", () => {
    const root = makeRepo();
    writeFileSync(join(root, "guard.json"), JSON.stringify({ select: { trust: { subset: 0.9, medium: 0.6 } } }));
    mkdirSync(join(root, ".guard"));
    writeFileSync(join(root, ".guard", "config.json"), JSON.stringify({ select: { trust: { subset: 0.85 } } }));
    expect(loadConfig(root).select?.trust).toEqual({ subset: 0.85, medium: 0.6 });
  });

  test("an out-of-range number names the file and the dotted key", () => {
    expect(errorLine(() => validateConfig("guard.json", { select: { trust: { subset: 2 } } }))).toBe(
      "guard.json at `select.trust.subset`: expected number between 0 and 1",
    );
  });

  test("a wrong type names the key", () => {
    expect(errorLine(() => validateConfig("guard.json", { select: { trust: { subset: "high" } } }))).toBe(
      "guard.json at `select.trust.subset`: expected number between 0 and 1",
    );
    expect(errorLine(() => validateConfig("guard.json", { engine: { backend: "cloud" } }))).toBe(
      "guard.json at `engine.backend`: expected one of embedded, server, docker",
    );
  });

  test("an unknown key is an error, not silently ignored", () => {
    expect(errorLine(() => validateConfig("guard.json", { selct: {} }))).toContain("guard.json at `selct`");
  });

  test("malformed JSON is one clear line", () => {
    const root = makeRepo();
    writeFileSync(join(root, "guard.json"), "{ select: ");
    const line = errorLine(() => loadConfig(root));
    expect(line.startsWith("guard.json: not valid JSON")).toBe(true);
    expect(line).not.toContain("\n");
  });
});
