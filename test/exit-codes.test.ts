import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT, EXIT_DESCRIPTIONS } from "../src/kernel/exit-codes.ts";

test("the README's exit-code table is the code's table", () => {
  const readme = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");
  const section = readme.split("## Exit codes")[1]?.split("\n## ")[0] ?? "";
  const rows = [...section.matchAll(/^\| `(\d+)` \| `(\w+)` \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2], m[3]]);
  const expected = Object.entries(EXIT).map(([name, code]) => [code, name, EXIT_DESCRIPTIONS[code]]);
  expect(rows).toEqual(expected);
});
