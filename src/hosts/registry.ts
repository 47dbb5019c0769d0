import { antigravity } from "./records/antigravity.ts";
import { claudeCode } from "./records/claude-code.ts";
import { codex } from "./records/codex.ts";
import { copilot } from "./records/copilot.ts";
import { cursor } from "./records/cursor.ts";
import { gemini } from "./records/gemini.ts";
import { kiro } from "./records/kiro.ts";
import { opencode } from "./records/opencode.ts";
import { windsurf } from "./records/windsurf.ts";
import type { HostRecord } from "./types.ts";

/** Every host guard knows. Adding a host = a record here + fixtures under fixtures/hosts/<id>/. */
export const HOSTS: HostRecord[] = [claudeCode, codex, cursor, copilot, antigravity, gemini, opencode, kiro, windsurf];

export const hostIds = (): string[] => HOSTS.map((h) => h.id);

export function findHost(id: string): HostRecord | undefined {
  return HOSTS.find((h) => h.id === id);
}

export { findEvent } from "./load-host.ts";
