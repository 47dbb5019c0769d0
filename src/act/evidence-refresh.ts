import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { selfCommand } from "../code/worker/paths.ts";
import type { Selection } from "../decide/select/selection.ts";
import { gitRaw, headSha } from "../repo/git.ts";
import { loadConfig } from "../state/config.ts";
import { appendEvent } from "../state/events.ts";
import { readEvidenceHead, writeEvidenceHead } from "../state/evidence-head.ts";
import { ensureStateDir } from "../state/paths.ts";
import { pidRunning } from "../state/process.ts";

export type RefreshOutcome = "started" | "running" | "stopped" | "current" | "not-needed" | "dirty" | "off";

/** A refresh still running after this long is taken for stuck (a test that never ends) and stopped. */
export const REFRESH_LIMIT_MS = 30 * 60_000;

/** Whether background refresh is on: `select.refreshEvidence` (default true), `GUARD_EVIDENCE_REFRESH=0` turns it off. */
function enabled(root: string): boolean {
  if (process.env.GUARD_EVIDENCE_REFRESH === "0") return false;
  try {
    return loadConfig(root).select?.refreshEvidence !== false;
  } catch {
    return false;
  }
}

/**
 * Evidence stays current without the user. After guard ran tests (guard run, the Stop and pre-commit
 * gates) on a clean tree whose evidence was brought up to another commit than HEAD, `guard evidence
 * --changed` re-records the tests whose covered code changed, in the background: detached, at low
 * priority, one at a time per repository and once per HEAD, its output in .guard/evidence-refresh.log.
 * It never delays the answer. Only after evidence was recorded once (guard init / guard evidence).
 * A dirty tree is left alone: evidence is keyed by commit, and uncommitted code is not HEAD's.
 */
export function refreshEvidenceInBackground(root: string, selection: Pick<Selection, "fault">): RefreshOutcome {
  if (!enabled(root)) return "off";
  // Nothing to refresh into an engine that is down or a graph never indexed.
  if (selection.fault) return "not-needed";
  const last = readEvidenceHead(root);
  if (!last) return "not-needed";
  const head = headSha(root);
  if (!head) return "not-needed";
  if (last.pid !== undefined && pidRunning(last.pid)) {
    if (Date.now() - Date.parse(last.at) < REFRESH_LIMIT_MS || !isRefresh(last.pid)) return "running";
    // Stuck, most likely on a test that never ends: SIGTERM, and guard stops its runners with it
    // (src/state/process-tree.ts). Not started again for this HEAD: it would hang the same way.
    try {
      process.kill(last.pid, "SIGTERM");
    } catch {}
    appendEvent(root, { type: "evidence.refresh-stopped", head: last.head, pid: last.pid, minutes: Math.round((Date.now() - Date.parse(last.at)) / 60_000) });
    writeEvidenceHead(root, { head: last.head });
    return "stopped";
  }
  if (last.head === head) return "current";
  const status = gitRaw(["status", "--porcelain", "--untracked-files=no"], root);
  if (status.code !== 0 || status.stdout.trim() !== "") return "dirty";
  try {
    ensureStateDir(root);
    const log = openSync(join(root, ".guard", "evidence-refresh.log"), "w", 0o600);
    const [cmd, ...rest] = selfCommand();
    const nice = existsSync("/usr/bin/nice") ? ["/usr/bin/nice", "-n", "10"] : [];
    const argv = [...nice, cmd!, ...rest, "evidence", "--changed"];
    const child = spawn(argv[0]!, argv.slice(1), { cwd: root, detached: true, stdio: ["ignore", log, log], env: { ...process.env, GUARD_EVIDENCE_REFRESH: "0" } });
    closeSync(log);
    child.on("error", () => {});
    child.unref();
    if (!child.pid) return "not-needed";
    writeEvidenceHead(root, { head, pid: child.pid });
    appendEvent(root, { type: "evidence.refresh", head, pid: child.pid, from: last.head });
    return "started";
  } catch {
    return "not-needed";
  }
}

/** The pid is still guard's `evidence --changed` (not another process that took the pid since). */
function isRefresh(pid: number): boolean {
  try {
    const p = Bun.spawnSync(["ps", "-o", "command=", "-p", String(pid)], { stdout: "pipe", stderr: "ignore" });
    return p.exitCode === 0 && / evidence --changed\b/.test(p.stdout.toString());
  } catch {
    return false;
  }
}
