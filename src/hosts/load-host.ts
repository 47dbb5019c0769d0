import type { HostEventSpec, HostRecord } from "./types.ts";

/**
 * One host's record, loaded alone: a hook call is a fresh process and needs only the record of the host
 * that called it (each record builds its payload schemas when it loads). The same records as HOSTS in
 * registry.ts; test/hosts/load-host.test.ts keeps the two lists equal.
 */
export const RECORD_LOADERS: Record<string, () => Promise<HostRecord>> = {
  "claude-code": async () => (await import("./records/claude-code.ts")).claudeCode,
  codex: async () => (await import("./records/codex.ts")).codex,
  cursor: async () => (await import("./records/cursor.ts")).cursor,
  copilot: async () => (await import("./records/copilot.ts")).copilot,
  antigravity: async () => (await import("./records/antigravity.ts")).antigravity,
  gemini: async () => (await import("./records/gemini.ts")).gemini,
  opencode: async () => (await import("./records/opencode.ts")).opencode,
  kiro: async () => (await import("./records/kiro.ts")).kiro,
  windsurf: async () => (await import("./records/windsurf.ts")).windsurf,
};

export async function loadHost(id: string): Promise<HostRecord | undefined> {
  return Object.hasOwn(RECORD_LOADERS, id) ? await RECORD_LOADERS[id]!() : undefined;
}

export function findEvent(host: HostRecord, id: string): HostEventSpec | undefined {
  return host.events.find((e) => e.id === id || e.native === id);
}
