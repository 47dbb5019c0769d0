import { describeError } from "../../kernel/errors.ts";
import type { GraphClient } from "../../graph/client.ts";
import { connectEngine, type EngineDeps, type EngineHandle, type EngineSettings } from "../../graph/engine/index.ts";
import type { DoctorCheck, DoctorContext, DoctorEntry } from "./check.ts";
import { DOCTOR_CHECKS } from "./checks.ts";

export interface DoctorReport {
  ok: boolean;
  checks: DoctorEntry[];
}

/** Run every check (one that throws counts as a fail); ok when none failed. */
export async function runDoctor(
  input: { cwd: string; root?: string; settings: EngineSettings; fix: boolean },
  checks: DoctorCheck[] = DOCTOR_CHECKS,
  deps: EngineDeps = {},
): Promise<DoctorReport> {
  let engine: Promise<{ client: GraphClient; handle: EngineHandle }> | undefined;
  const ctx: DoctorContext = {
    ...input,
    engine: () => {
      engine ??= connectEngine(input.settings, deps);
      return engine;
    },
    resetEngine: () => {
      if (engine) void engine.then((e) => e.client.close()).catch(() => {});
      engine = undefined;
    },
  };
  const out: DoctorEntry[] = [];
  try {
    for (const check of checks) {
      let r;
      try {
        r = await check.run(ctx);
      } catch (e) {
        r = { status: "fail" as const, summary: describeError(e) };
      }
      out.push({ id: check.id, section: check.section, title: check.title, ...r });
    }
  } finally {
    if (engine) await engine.then((e) => e.client.close()).catch(() => {});
  }
  return { ok: !out.some((c) => c.status === "fail"), checks: out };
}
