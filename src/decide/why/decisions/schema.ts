import * as v from "valibot";

/**
 * A human decision: why some code must stay as it is. Kept in the repository as YAML under
 * `.guard-decisions/` (one file per decision, e.g. `.guard-decisions/pay-001.yaml`), reviewed like code.
 *
 *   id: pay-001
 *   version: 1
 *   status: active            # draft | active | replaced | expired
 *   scope: { files: [src/payments/charge.ts], symbols: [PaymentService.charge] }
 *   reason: A retried checkout charged customers twice (#42); charge once per idempotency key.
 *   must_preserve: [condition_removed, "this.receipts.get(key)"]
 *   evidence: ["#42", "3f2a9c1"]
 *   required_tests: ["test/payments.test.ts::charges once per idempotency key"]
 *   expires_when: ["2027-06-30"]
 *   owners: [payments-team]
 */
export const DECISION_STATUSES = ["draft", "active", "replaced", "expired"] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

const strings = (what: string) => v.array(v.string(`expected ${what}`), `expected array of strings`);
const optionalStrings = (what: string) => v.optional(strings(what), []);

/**
 * One piece of evidence: a string (`#42`, a commit sha, a URL) or WhyGuard's `{ type, id }` object,
 * read as the same string (`{ type: issue, id: "1" }` → `#1`, `{ type: commit, id: 4a62265 }` → `4a62265`).
 */
const EvidenceItem = v.union(
  [
    v.string(),
    v.pipe(
      v.object({ type: v.string(), id: v.union([v.string(), v.number()]) }),
      v.transform(({ type, id }) => (/^(issue|pr|pull_request)$/i.test(type) ? `#${id}` : /^commit$/i.test(type) ? String(id) : `${type}:${id}`)),
    ),
  ],
  "expected a commit sha, #issue, URL, or a { type, id } object",
);

export const DecisionSchema = v.strictObject(
  {
    id: v.pipe(v.string("expected a string id such as pay-001"), v.regex(/^[A-Za-z0-9][\w.-]*$/, "expected letters, digits, '.', '_' or '-' (such as pay-001)")),
    version: v.pipe(v.number("expected a whole number ≥ 1"), v.integer("expected a whole number ≥ 1"), v.minValue(1, "expected a whole number ≥ 1")),
    status: v.picklist(DECISION_STATUSES, `expected one of ${DECISION_STATUSES.join(", ")}`),
    scope: v.strictObject(
      {
        files: v.pipe(strings("a path or glob"), v.minLength(1, "expected at least one file")),
        symbols: optionalStrings("a qualified name such as PaymentService.charge"),
      },
      "expected an object with files (and symbols)",
    ),
    reason: v.pipe(v.string("expected a sentence saying why"), v.minLength(1, "expected a sentence saying why")),
    must_preserve: optionalStrings("a finding kind or a code fragment"),
    evidence: v.optional(v.array(EvidenceItem, "expected array of strings or { type, id } objects"), []),
    required_tests: optionalStrings("path::test name"),
    expires_when: optionalStrings("an ISO date or a condition"),
    owners: optionalStrings("an owner"),
  },
  "expected an object",
);

export type Decision = v.InferOutput<typeof DecisionSchema>;

export interface LoadedDecision extends Decision {
  /** Path of the file, relative to the repository root. */
  source: string;
  /** Past an `expires_when` date (treated as expired whatever `status` says). */
  expired: boolean;
}
