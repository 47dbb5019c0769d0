/**
 * `guard demo` scenarios, one record each. A scenario builds its own sample repository in a temp folder
 * (or --dir), runs guard on it, and says whether guard behaved as the scenario expects.
 */
export interface ScenarioResult {
  /** What happened, for people. */
  lines: string[];
  /** For --json. */
  data: Record<string, unknown>;
  /** guard did what the scenario shows (the demo exits 1 otherwise). */
  asExpected: boolean;
}

export interface Scenario {
  name: string;
  summary: string;
  run(dir: string): Promise<ScenarioResult>;
}

export const SCENARIOS: Scenario[] = [
  {
    name: "select",
    summary: "an agent edits a shared helper: a same-file heuristic misses the break, guard runs the tests that execute it",
    run: async (dir) => (await import("./select.ts")).runSelectDemo(dir),
  },
  {
    name: "why",
    summary: "an agent removes a payment idempotency guard a human decision protects: the commit is blocked",
    run: async (dir) => (await import("./why.ts")).runWhyDemo(dir, "block"),
  },
  {
    name: "why-weak",
    summary: "the same removal with only weak evidence (a commit mentioning an issue): a warning, the commit goes through",
    run: async (dir) => (await import("./why.ts")).runWhyDemo(dir, "weak"),
  },
];

export const scenarioNamed = (name: string): Scenario | undefined => SCENARIOS.find((s) => s.name === name);
