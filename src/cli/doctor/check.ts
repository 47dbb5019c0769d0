import type { GraphClient } from "../../graph/client.ts";
import type { EngineHandle, EngineSettings } from "../../graph/engine/index.ts";

/**
 * `guard doctor` is a list of check records. A check looks at one thing, says ok / warn / fail / info
 * in one line, and may repair it under `--fix`. Areas add theirs in checks.ts beside this file (one import, one entry).
 */
export type CheckStatus = "ok" | "warn" | "fail" | "info";

export interface CheckResult {
  status: CheckStatus;
  /** One line: what was found. */
  summary: string;
  /** Facts worth showing (versions, counts, paths); printed indented, included in --json. */
  details?: Record<string, unknown>;
  /** What to do about a warn or fail. */
  todo?: string;
  /** Set when --fix repaired it. */
  fixed?: boolean;
}

export interface DoctorContext {
  cwd: string;
  /** The repository's root, or undefined outside one. */
  root?: string;
  settings: EngineSettings;
  fix: boolean;
  /** The engine, connected on first use and shared by every check; throws when unreachable. */
  engine(): Promise<{ client: GraphClient; handle: EngineHandle }>;
  /** Forget the engine connection (or the failure to make one), after a repair. */
  resetEngine(): void;
}

export interface DoctorCheck {
  id: string;
  /** Section heading: engine, graph, state, integrations, ... */
  section: string;
  title: string;
  run(ctx: DoctorContext): Promise<CheckResult>;
}

export interface DoctorEntry extends CheckResult {
  id: string;
  section: string;
  title: string;
}
