import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { randomHex, sha256, sha256Hex } from "../../src/state/digest.ts";

// Digests guard has stored (event log sha256, trash tree digests, socket names) must not change with the hasher.
describe("state/digest", () => {
  const node = (d: string | Uint8Array) => createHash("sha256").update(d).digest("hex");

  test("sha256Hex gives node's digest for text (UTF-8) and for bytes", () => {
    for (const d of ["", "ls -la src && git status", "naïve – ünïcode ✓", "\0binary\xff"]) expect(sha256Hex(d)).toBe(node(d));
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(sha256Hex(bytes)).toBe(node(bytes));
    expect(sha256Hex(Buffer.from("latin1 é", "latin1"))).toBe(node(Buffer.from("latin1 é", "latin1")));
  });

  test("sha256() fed in parts equals the digest of the whole", () => {
    expect(sha256().update("F\0a.txt\0").update(new Uint8Array([1, 2, 3])).digest("hex")).toBe(node(Buffer.concat([Buffer.from("F\0a.txt\0"), Buffer.from([1, 2, 3])])));
  });

  test("randomHex gives 2 hex digits per byte, different each time", () => {
    expect(randomHex(3)).toMatch(/^[0-9a-f]{6}$/);
    expect(new Set(Array.from({ length: 50 }, () => randomHex(8))).size).toBe(50);
  });
});
