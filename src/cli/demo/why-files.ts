/** The sample payment service of the why demos, at each step of its history. */

export const CHARGE_V1 = `export interface Order {
  id: string;
  amount: number;
}

export interface Receipt {
  orderId: string;
  amount: number;
}

export class PaymentService {
  constructor(
    private readonly gateway: { charge(amount: number): Promise<Receipt> },
    private readonly receipts: Map<string, Receipt>,
  ) {}

  async charge(order: Order, key: string): Promise<Receipt> {
    if (order.amount <= 0) throw new RangeError("amount must be positive");
    const receipt = await this.gateway.charge(order.amount);
    this.receipts.set(key, receipt);
    return receipt;
  }
}
`;

/** The idempotency guard the fix added. */
export const CHARGE_V2 = CHARGE_V1.replace(
  `    if (order.amount <= 0) throw new RangeError("amount must be positive");\n`,
  `    if (order.amount <= 0) throw new RangeError("amount must be positive");\n    const existing = this.receipts.get(key);\n    if (existing) return existing;\n`,
);

export const TEST_V1 = `import { expect, it, describe } from "bun:test";
import { PaymentService } from "../src/payments/charge.ts";

const gateway = () => {
  const calls: number[] = [];
  return { calls, charge: async (amount: number) => (calls.push(amount), { orderId: "o1", amount }) };
};

describe("charge", () => {
  it("charges the order amount", async () => {
    const g = gateway();
    const r = await new PaymentService(g, new Map()).charge({ id: "o1", amount: 1250 }, "k1");
    expect(r.amount).toBe(1250);
  });
});
`;

export const TEST_V2 = TEST_V1.replace(
  /\n}\);\n$/,
  `

  it("charges once per idempotency key", async () => {
    const g = gateway();
    const s = new PaymentService(g, new Map());
    await s.charge({ id: "o1", amount: 1250 }, "k1");
    await s.charge({ id: "o1", amount: 1250 }, "k1");
    expect(g.calls).toHaveLength(1);
  });
});
`,
);

export const DECISION = `# A human decision read by \`guard why\`.
id: pay-001
version: 1
status: active
scope:
  files: [src/payments/charge.ts]
  symbols: [PaymentService.charge]
reason: A retried checkout charged customers twice (#42). charge() must return the stored receipt for a key it has seen.
must_preserve:
  - condition_removed
  - "this.receipts.get(key)"
evidence: ["#42"]
required_tests:
  - "test/payments.test.ts::charge > charges once per idempotency key"
expires_when: []
owners: [payments-team]
`;
