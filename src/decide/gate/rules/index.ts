import { FRONTEND_RULES } from "./frontend.ts";
import { INFRA_RULES } from "./infra.ts";
import { SECURITY_RULES } from "./security.ts";
import type { GateRule } from "./types.ts";

/** Every static rule of the gate; hard-coded secrets come from the leak guard's rules (secrets.ts). */
export const GATE_RULES: readonly GateRule[] = [...SECURITY_RULES, ...INFRA_RULES, ...FRONTEND_RULES];

export const SECRET_RULE_ID = "RULE-SECRET";

export type { GateRule, RuleExample } from "./types.ts";
