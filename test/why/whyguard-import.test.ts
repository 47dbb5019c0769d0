// A repository kept with WhyGuard: decisions under .whyguard/decisions/ (evidence as { type, id }
// objects, a whole test file as the required test). guard says it does not read them, a human imports
// them, and from then on the verdicts are WhyGuard's: history alone warns, a recorded decision blocks.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_ENV } from "../../src/decide/why/decisions/human.ts";
import { GUARD_MAIN, guard, makeRepo, sh, writeFiles } from "../helpers/repo.ts";

const PAYMENTS = `export const MAX_ATTEMPTS = 3;
/** The gateway's minimum gap between two capture attempts. */
export const RETRY_BACKOFF_MS = 2000;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function capturePayment(amount: number, key: string, send: (a: number, k: string) => Promise<void>) {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    try {
      return await send(amount, key);
    } catch (e) {
      if (attempt < MAX_ATTEMPTS) await pause(RETRY_BACKOFF_MS);
    }
  }
  throw new Error("capture failed");
}
`;
const ORDERS = `import { capturePayment } from "./payments";

export async function createOrder(cart: { id: string; amount: number }, key: string, store: Store) {
  const existing = store.byKey(key);
  if (existing) {
    return existing;
  }
  await capturePayment(cart.amount, key, store.send);
  return store.save({ cartId: cart.id, key });
}
`;
const TESTS = `import { expect, test } from "vitest";
import { createOrder } from "./orders";

test("a repeated key returns the first order", async () => {
  expect(await createOrder(cart, "k", store)).toBe(await createOrder(cart, "k", store));
});
`;
const decision = (id: string, file: string, symbols: string[], issue: string) => `id: ${id}
version: 1
status: active

scope:
  files:
    - ${file}
  symbols:
${symbols.map((s) => `    - ${s}`).join("\n")}

reason: >
  Duplicate captures reached customers (issue ${issue}); this is a constraint, not a knob.

must_preserve:
  - The behaviour named in the reason.

evidence:
  - type: issue
    id: "${issue}"

required_tests:
  - src/orders.test.ts

expires_when:
  - The gateway guarantees idempotency server-side.

owners:
  - checkout
`;

const humanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !(AGENT_ENV as readonly string[]).includes(k))) as Record<string, string>;
/** A human at a terminal (`script` gives the command a pseudo-terminal). */
function asHuman(args: string[], dir: string) {
  const cmd = [process.execPath, GUARD_MAIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const p = Bun.spawnSync(["script", "-qec", cmd, "/dev/null"], { cwd: dir, env: humanEnv(), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

function whyguardRepo(): string {
  const dir = makeRepo({ "src/payments.ts": PAYMENTS, "src/orders.test.ts": TESTS, "package.json": "{}\n" });
  writeFiles(dir, { "src/orders.ts": ORDERS });
  sh(["git", "add", "-A"], dir);
  sh(["git", "commit", "-q", "-m", "Return the existing order for a repeated key (fixes #1)"], dir);
  writeFiles(dir, {
    ".whyguard/decisions/order-idempotency.yml": decision("order-idempotency", "src/orders.ts", ["createOrder"], "1"),
    ".whyguard/decisions/gateway-retry-interval.yml": decision("gateway-retry-interval", "src/payments.ts", ["capturePayment", "RETRY_BACKOFF_MS"], "2"),
  });
  sh(["git", "add", "-A"], dir);
  sh(["git", "commit", "-q", "-m", "Record the checkout decisions"], dir);
  return dir;
}

const verify = (dir: string) => guard(["why", "verify", "--scope", "working-tree", "--json"], dir);

describe("moving over from WhyGuard", () => {
  test("before the import: history alone warns, and guard says the WhyGuard decisions are not read", () => {
    const dir = whyguardRepo();
    writeFileSync(join(dir, "src/payments.ts"), PAYMENTS.replace("RETRY_BACKOFF_MS = 2000", "RETRY_BACKOFF_MS = 200"));
    const r = verify(dir);
    const j = JSON.parse(r.stdout);
    expect(j.data.verdict).toBe("warn");
    expect(j.data.notes.join("\n")).toContain("guard why import-whyguard");
  });

  test("a human imports them; a lowered module constant a decision names, or a removed guard, is then blocked", () => {
    const dir = whyguardRepo();
    const refused = guard(["why", "import-whyguard"], dir, { env: { ...humanEnv(), CLAUDECODE: "1" } });
    expect(refused.code).toBe(2);
    const imported = asHuman(["why", "import-whyguard"], dir);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain("imported .whyguard/decisions/order-idempotency.yml → .guard-decisions/order-idempotency.yaml");
    const converted = readFileSync(join(dir, ".guard-decisions/order-idempotency.yaml"), "utf8");
    expect(converted).toContain('- "#1"');
    sh(["git", "add", "-A"], dir);
    sh(["git", "commit", "-q", "-m", "Import the WhyGuard decisions"], dir);

    writeFileSync(join(dir, "src/payments.ts"), PAYMENTS.replace("RETRY_BACKOFF_MS = 2000", "RETRY_BACKOFF_MS = 200"));
    const lowered = JSON.parse(verify(dir).stdout);
    expect(lowered.data.verdict).toBe("block");
    expect(lowered.data.findings[0]).toMatchObject({ kind: "timeout_changed", constant: "RETRY_BACKOFF_MS", readers: ["capturePayment"] });
    expect(lowered.data.findings[0].message).toContain("RETRY_BACKOFF_MS changed from 2000 to 200");
    expect(lowered.data.notes.join("\n")).not.toContain("import-whyguard");

    sh(["git", "checkout", "-q", "--", "src/payments.ts"], dir);
    writeFileSync(join(dir, "src/orders.ts"), ORDERS.replace("  if (existing) {\n    return existing;\n  }\n", ""));
    const removed = JSON.parse(verify(dir).stdout);
    expect(removed.data.verdict).toBe("block");
    expect(removed.data.findings[0]).toMatchObject({ kind: "condition_removed", symbol: "createOrder" });
    expect(removed.data.findings[0].decisions[0].id).toBe("order-idempotency");
  });

  test("an uncommitted decision has no effect on a scan of commits, and the scan says so", () => {
    const dir = whyguardRepo();
    expect(asHuman(["why", "import-whyguard"], dir).code).toBe(0);
    const r = guard(["why", "scan", "--base", "HEAD~1", "--head", "HEAD", "--json"], dir);
    expect(JSON.parse(r.stdout).data.notes.join("\n")).toContain("uncommitted decision file(s) have no effect");
    expect(existsSync(join(dir, ".guard-decisions"))).toBe(true);
  });
});

test("why trace on a function names the module-level timeout it reads", () => {
  const dir = whyguardRepo();
  const r = guard(["why", "trace", "src/payments.ts:capturePayment"], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("line 3 number: RETRY_BACKOFF_MS = 2000");
  expect(r.stdout).not.toContain("no protective code found");
});
