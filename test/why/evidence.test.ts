import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { movedHistory, squashHistory } from "../../fixtures/why/histories/build.ts";
import { introducingCommit, searchFragment } from "../../src/decide/why/evidence/history.ts";
import { parseMessage } from "../../src/decide/why/evidence/message.ts";
import { scanWhy, verifyWhy } from "../../src/decide/why/index.ts";
import { git } from "../../src/repo/git.ts";
import { sh } from "../helpers/repo.ts";

const shaOf = (dir: string, subject: string) => git(["log", "--format=%H", "--fixed-strings", `--grep=${subject}`], dir).trim();

describe("introducing commit (git log -S)", () => {
  test("is found after the code moved to another file", () => {
    const dir = movedHistory();
    const intro = introducingCommit(dir, "if (seen.has(key)) return seen.get(key);", "HEAD", "src/payments/service.js");
    expect(intro.commit?.subject).toBe("Return the first receipt for a repeated key");
    expect(intro.commit?.sha).toBe(shaOf(dir, "Return the first receipt"));
    expect(intro.commit?.refs.closes).toEqual(["#10"]);
    // the move is one of the commits that touched it, not the introduction
    expect(intro.touching.map((c) => c.subject)).toContain("Move charging into the payments service");
  });

  test("a fragment never committed has no introducing commit", () => {
    const dir = movedHistory();
    expect(introducingCommit(dir, "if (neverWritten(key)) return;", "HEAD", "src/payments/service.js").commit).toBeUndefined();
  });

  test("a removal in a scan finds the moved code's original commit and its issue", async () => {
    const dir = movedHistory();
    const file = join(dir, "src/payments/service.js");
    writeFileSync(file, readFileSync(file, "utf8").replace("  if (seen.has(key)) return seen.get(key);\n", ""));
    sh(["git", "commit", "-qam", "Simplify"], dir);
    const r = await scanWhy(dir, "HEAD~1", "HEAD");
    expect(r.findings.map((f) => [f.kind, f.symbol, f.introducedBy?.subject])).toEqual([["condition_removed", "charge", "Return the first receipt for a repeated key"]]);
    expect(r.findings[0]!.evidence.map((e) => e.kind)).toContain("issue_closed");
    expect(r.verdict).toBe("warn");
  });

  test("squash-merge suffix and several issue references", async () => {
    const dir = squashHistory();
    const intro = introducingCommit(dir, "if not cart.items:", "HEAD", "app/cart.py");
    expect(intro.commit?.refs).toMatchObject({ pr: "#123", closes: ["#118", "#119", "acme/shop#7"], refs: ["#100", "PAY-9"] });
    writeFileSync(join(dir, "app/cart.py"), "def checkout(cart):\n    return pay(cart.total)\n");
    sh(["git", "add", "-A"], dir);
    const r = await verifyWhy(dir, { scope: "staged" });
    expect(r.findings.map((f) => f.kind)).toEqual(["validation_removed"]);
    const kinds = r.findings[0]!.evidence.map((e) => `${e.kind}:${e.ref}`);
    expect(kinds).toEqual(expect.arrayContaining(["issue_closed:#118", "issue_closed:#119", "issue_closed:acme/shop#7", "issue_ref:#100", "issue_ref:PAY-9", "pull_request:#123"]));
    // five distinct issues → repeated incidents at full weight; no decision → never a block
    expect(r.findings[0]!.factors.incidents).toBe(1);
    expect(r.verdict).toBe("warn");
  });
});

describe("commit messages", () => {
  const cases: [string, string, Partial<ReturnType<typeof parseMessage>>][] = [
    ["Fix double charge (#57)", "Closes #42", { closes: ["#42"], pr: "#57", incident: true }],
    ["fixes: #1, #2 and #3", "", { closes: ["#1", "#2", "#3"], refs: [] }],
    ["Resolve GH-8", "see https://example.invalid/acme/shop/issues/9", { closes: ["#8"], refs: ["#9"] }],
    ["Bump version", "", { closes: [], refs: [], fix: false, incident: false }],
    ["Handle PAY-77 refunds", "", { closes: [], refs: ["PAY-77"] }],
    ["Keep the retry", "See PR #219", { closes: [], refs: [], pr: "#219" }],
    ["Guard refunds, PR #57", "Fixes #12", { closes: ["#12"], refs: [], pr: "#57" }],
    ["Revert timeout", "https://example.invalid/acme/shop/pull/31", { refs: [], pr: "#31" }],
  ];
  for (const [subject, body, want] of cases) test(subject, () => expect(parseMessage(subject, body)).toMatchObject(want));
});

test("the searched fragment is the first telling line", () => {
  expect(searchFragment("if (existing) {\n  return existing;\n}")).toBe("if (existing) {");
  expect(searchFragment("{\n  validate(order);\n}")).toBe("validate(order);");
});
