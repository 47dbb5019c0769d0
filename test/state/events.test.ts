import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { appendEvent, eventsPath, readEvents } from "../../src/state/events.ts";
import { makeRepo } from "../helpers/repo.ts";

const WRITER = join(import.meta.dir, "events-writer.ts");

describe("audit log", () => {
  test("8 concurrent writers × 500 events give 4000 valid lines", async () => {
    const root = makeRepo();
    const procs = Array.from({ length: 8 }, (_, i) =>
      Bun.spawn([process.execPath, WRITER, root, String(i), "500"], { stdout: "ignore", stderr: "pipe" }),
    );
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual(Array(8).fill(0));
    const lines = readFileSync(eventsPath(root), "utf8").split("\n").filter(Boolean);
    expect(lines.length).toBe(4000);
    const parsed = lines.map((l) => JSON.parse(l));
    for (let w = 0; w < 8; w++) {
      const seq = parsed.filter((e) => e.writer === w).map((e) => e.seq);
      expect(seq).toEqual(Array.from({ length: 500 }, (_, i) => i));
    }
    expect(parsed.every((e) => e.v === 1 && typeof e.ts === "string")).toBe(true);
  });

  test("a torn line never breaks a reader", () => {
    const root = makeRepo();
    appendEvent(root, { type: "a" });
    appendFileSync(eventsPath(root), '{"v":1,"type":"torn","pay');
    appendFileSync(eventsPath(root), "\n");
    appendEvent(root, { type: "b" });
    expect(readEvents(root).map((e) => e.type)).toEqual(["a", "b"]);
  });

  test("the state dir is kept out of git through info/exclude, never .gitignore", () => {
    const root = makeRepo();
    appendEvent(root, { type: "x" });
    const status = Bun.spawnSync(["git", "status", "--porcelain", "--ignored"], { cwd: root }).stdout.toString();
    expect(status).toContain("!! .guard/");
    expect(readFileSync(join(root, ".git", "info", "exclude"), "utf8")).toContain("/.guard/");
    appendEvent(root, { type: "y" });
    const occurrences = readFileSync(join(root, ".git", "info", "exclude"), "utf8").split("/.guard/").length - 1;
    expect(occurrences).toBe(1);
  });
});
