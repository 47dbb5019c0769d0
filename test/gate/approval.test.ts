// Signed approvals: what guard post signs is exactly what the pre-commit gate lets through. Every
// tamper case is refused. Real git repositories, guard run from source as a user runs it.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildGateRepo, edit, removeRepo, SCOPE, write } from "../../fixtures/gate/build.ts";
import { keyPath } from "../../src/act/approval/key.ts";
import { verifyStagedApproval } from "../../src/act/approval/verify.ts";
import { guard, sh } from "../helpers/repo.ts";

const FAST = { gate: { graph: "never", tests: false, build: false } };
const repos: string[] = [];
afterAll(() => repos.forEach(removeRepo));

/** pre → an in-scope edit → post (APPROVED) → stage it. */
function approvedRepo(): string {
  const root = buildGateRepo(FAST);
  repos.push(root);
  expect(guard(["pre", "simplify format_date", ...SCOPE.flatMap((g) => ["--scope", g])], root).code).toBe(0);
  edit(root, "app/dates.py", (s) => s.replace('value.strftime("%Y-%m-%d")', "value.date().isoformat()"));
  const post = guard(["post"], root);
  expect(post.stdout).toContain("APPROVED");
  sh(["git", "add", "app/dates.py"], root);
  return root;
}

const approvalFile = (root: string) => join(root, ".guard", "approvals", readdirSync(join(root, ".guard", "approvals"))[0]!);
const precommit = (root: string) => guard(["precommit"], root);

describe("the approval key", () => {
  test("is 32 random bytes, mode 0600, created once", () => {
    approvedRepo();
    const st = statSync(keyPath());
    expect(st.size).toBe(32);
    expect(st.mode & 0o777).toBe(0o600);
    const before = readFileSync(keyPath());
    approvedRepo();
    expect(readFileSync(keyPath()).equals(before)).toBe(true);
  });
});

describe("pre-commit with an open task", () => {
  test("the approved staged change passes", () => {
    const root = approvedRepo();
    const r = precommit(root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("approved by guard post");
    expect(verifyStagedApproval(root)).toMatchObject({ ok: true, required: true, code: "APPROVAL_OK" });
  });

  test("edited session file (scope widened by hand) is refused", () => {
    const root = approvedRepo();
    const p = join(root, ".guard", "session.json");
    const s = JSON.parse(readFileSync(p, "utf8"));
    s.scope.push("**");
    writeFileSync(p, JSON.stringify(s, null, 2));
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("commit refused");
    expect(r.stderr).toContain("session.json changed after the approval");
  });

  test("a deleted session file with its approval left behind is refused, not waved through", () => {
    const root = approvedRepo();
    rmSync(join(root, ".guard", "session.json"));
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("session.json was deleted but an approval is left");
  });

  test("a staged file edited after the approval is refused", () => {
    const root = approvedRepo();
    edit(root, "app/dates.py", (s) => `${s}\n# one more line\n`);
    sh(["git", "add", "app/dates.py"], root);
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("app/dates.py changed after `guard post` approved it");
  });

  test("an approval signed with another key is refused", () => {
    const root = approvedRepo();
    writeFileSync(keyPath(), randomBytes(32), { mode: 0o600 });
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("signature does not verify");
  });

  test("a missing signature is refused", () => {
    const root = approvedRepo();
    const rec = JSON.parse(readFileSync(approvalFile(root), "utf8"));
    delete rec.signature;
    writeFileSync(approvalFile(root), JSON.stringify(rec));
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no signature");
  });

  test("an approval whose fingerprints were edited to match a new content is refused", () => {
    const root = approvedRepo();
    edit(root, "app/dates.py", (s) => `${s}\nimport os\n`);
    sh(["git", "add", "app/dates.py"], root);
    const rec = JSON.parse(readFileSync(approvalFile(root), "utf8"));
    rec.files["app/dates.py"] = new Bun.CryptoHasher("sha256").update(readFileSync(join(root, "app/dates.py"))).digest("hex");
    writeFileSync(approvalFile(root), JSON.stringify(rec));
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("signature does not verify");
  });

  test("a staged file the approval does not cover is refused", () => {
    const root = approvedRepo();
    write(root, "app/extra.py", "X = 1\n");
    sh(["git", "add", "app/extra.py"], root);
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("app/extra.py is staged but not approved");
  });

  test("an approval from an earlier task is stale", () => {
    const root = approvedRepo();
    const old = readFileSync(approvalFile(root), "utf8");
    const name = approvalFile(root);
    sh(["git", "stash", "-q"], root);
    expect(guard(["pre", "another task", "--scope", "app/dates.py"], root).code).toBe(0);
    expect(existsSync(name)).toBe(false); // a new task withdraws every approval
    sh(["git", "stash", "pop", "-q"], root);
    sh(["git", "add", "app/dates.py"], root);
    mkdirSync(join(root, ".guard", "approvals"), { recursive: true });
    writeFileSync(name, old);
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("belongs to an earlier task");
  });

  test("REVISE leaves no approval: the commit is refused", () => {
    const root = buildGateRepo(FAST);
    repos.push(root);
    guard(["pre", "simplify format_date", "--scope", "app/dates.py"], root);
    edit(root, "app/stamp.py", (s) => `${s}\n`);
    expect(guard(["post"], root).code).toBe(2);
    sh(["git", "add", "app/stamp.py"], root);
    const r = precommit(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("has no approval");
  });

  test("a focused post never approves", () => {
    const root = buildGateRepo(FAST);
    repos.push(root);
    guard(["pre", "simplify format_date", "--scope", "app/dates.py"], root);
    edit(root, "app/dates.py", (s) => `${s}\n`);
    const r = guard(["post", "--focus", "rules"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("never approves");
    sh(["git", "add", "app/dates.py"], root);
    expect(precommit(root).code).toBe(2);
  });
});

describe("without a task", () => {
  test("no approval is required unless gate.requireApproval is on", () => {
    const root = buildGateRepo(FAST);
    repos.push(root);
    expect(verifyStagedApproval(root)).toMatchObject({ ok: true, required: false });
    write(root, ".guard/config.json", JSON.stringify({ gate: { requireApproval: true } }));
    expect(verifyStagedApproval(root)).toMatchObject({ ok: false, required: true, code: "APPROVAL_NO_TASK" });
  });
});
