import * as v from "valibot";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { combine } from "../kernel/decision.ts";
import { redactForLog } from "../decide/leak/scan.ts";
import { appendEvent } from "../state/events.ts";
import { guardHome } from "../state/paths.ts";
import { resolveWorkspace, type WorkspaceFound, type WorkspaceRefused } from "../state/workspace.ts";
import { describeError, isGuardError, systemTodo } from "../kernel/errors.ts";
import { exit2 } from "./answer.ts";
import { pickString, unknownTool } from "./payload.ts";
import { leakInLoop } from "./leak-check.ts";
import { checkShell } from "./shell-check.ts";
import { findEvent, loadHost } from "./load-host.ts";
import { clearStopFaults, countedBlock, undecidableStop } from "./stop-faults.ts";
import { BLOCKING_EVENTS, type HookAnswer, type HookEvent, type HookVerdict, type HostEventSpec, type HostRecord } from "./types.ts";

/** One workspace lookup per directory per hook call: every git spawn is felt in a hook's latency. */
const workspaces = new Map<string, WorkspaceFound | WorkspaceRefused>();
function workspaceOf(cwd: string): WorkspaceFound | WorkspaceRefused {
  if (!workspaces.has(cwd)) workspaces.set(cwd, resolveWorkspace(cwd, { home: process.env.HOME || homedir() }));
  return workspaces.get(cwd)!;
}

export interface HandleResult {
  answer: HookAnswer;
  verdict: HookVerdict;
  event?: HookEvent;
  latencyMs: number;
}

export interface HandleOptions {
  processCwd: string;
}

/** Answer one hook call. Never throws: every failure ends in the safe answer for that event, logged. */
export async function handleAgentEvent(hostId: string, eventId: string, stdin: string, opts: HandleOptions): Promise<HandleResult> {
  const started = performance.now();
  const host = await loadHost(hostId);
  const spec = host ? findEvent(host, eventId) : undefined;
  if (!host || !spec) {
    const what = !host ? `unknown host \`${hostId}\`` : `unknown event \`${eventId}\` for ${host.name}`;
    const verdict: HookVerdict = { decision: "BLOCK", code: "HOOK_UNKNOWN", reason: `${what}; see \`guard hook status\` for the hosts and events guard answers` };
    const answer = exit2(`guard: ${verdict.reason}`);
    return finish(started, { host: hostId, hostEvent: eventId, event: "pre-shell", cwd: opts.processCwd }, verdict, answer, false);
  }

  let ev: HookEvent = { host: host.id, hostEvent: spec.id, event: spec.maps[0]!, cwd: opts.processCwd };
  let verdict: HookVerdict;
  try {
    const decoded = decode(host, spec, stdin, opts);
    if ("error" in decoded) {
      verdict = malformed(ev, decoded.error);
      if (ev.event === "stop")
        verdict = undecidableStop("STOP_BAD_PAYLOAD", decoded.error, `guard cannot tell which folder or session is stopping; check that the hook runs \`guard agent-event ${host.id} ${spec.id}\` for ${host.name}`, { cwd: ev.cwd, root: workspaceOf(ev.cwd).root });
    } else if (decoded.event === undefined) {
      const unknown = spec.maps.includes("pre-shell") ? unknownTool(decoded.payload) : undefined;
      if (unknown?.command !== undefined) {
        // Fail closed on a shape the record does not know: a command is a command, whatever the tool is called.
        ev = { ...ev, event: "pre-shell", tool: unknown.tool, command: unknown.command, sessionId: sessionOf(decoded.payload), cwd: pickString(decoded.payload, "cwd") ?? ev.cwd };
        verdict = await decide(host, ev);
      } else if (unknown?.shellLike)
        verdict = { decision: "BLOCK", code: "HOOK_UNKNOWN_TOOL", reason: `${host.name} sent tool \`${unknown.tool}\`, which guard's record for it does not know and which looks like it runs commands, with no command field guard can read; blocked to be safe` };
      else verdict = { decision: "ALLOW", code: "HOOK_NOT_GATED", reason: "guard does not gate this tool" };
    } else {
      ev = decoded.event;
      verdict = leakInLoop(host, ev, await decide(host, ev));
    }
  } catch (e) {
    verdict = internalError(ev, e);
  }
  verdict = askOrBlock(host, sanitizeOrAsk(host, verdict));
  let answer: HookAnswer;
  try {
    answer = host.encode(verdict, ev);
  } catch (e) {
    answer = exit2(`guard: could not encode the answer: ${describeError(e)}`);
  }
  return finish(started, ev, verdict, answer, true);
}

type Decoded = { error: string } | { event: HookEvent | undefined; payload?: unknown };

const sessionOf = (p: unknown): string | undefined => pickString(p, "session_id", "sessionId", "sessionID", "conversation_id");

function decode(host: HostRecord, spec: HostEventSpec, stdin: string, opts: HandleOptions): Decoded {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch (e) {
    return { error: stdin.trim().length === 0 ? "the payload on stdin was empty" : `the payload is not JSON (${describeError(e)})` };
  }
  const r = v.safeParse(spec.schema, payload);
  if (!r.success) {
    const issue = r.issues[0];
    const at = v.getDotPath(issue);
    return { error: `the payload does not have ${host.name}'s ${spec.native} shape${at ? ` at \`${at}\`` : ""}: ${issue.message}` };
  }
  // Decoded with no process folder to fall back on, so a payload that names no folder shows as such.
  const d = spec.decode(r.output, { processCwd: "" });
  if (!d) return { event: undefined, payload };
  return { event: { ...d, host: host.id, hostEvent: spec.id, cwd: d.cwd || opts.processCwd, ...(d.cwd ? {} : { cwdFromProcess: true }) } };
}

async function decide(host: HostRecord, ev: HookEvent): Promise<HookVerdict> {
  const ws = workspaceOf(ev.cwd);
  switch (ev.event) {
    case "pre-shell": {
      // Without a workspace the shell guard saves nothing: destructive commands are BLOCK, with the reason.
      const v = await checkShell(ev.command ?? "", { cwd: ev.cwd, root: ws.root });
      if (!v.saved?.length || !ws.root) return v;
      // Modules only some events need are imported where they are used: a hook call is a fresh process.
      const { awaitRun, savedNotice } = await import("./consent.ts");
      const confirmable = host.confirmsRun === "post-tool" && !!ev.sessionId && !!ev.toolUseId;
      if (confirmable) awaitRun(ws.root, ev, v.saved);
      const notice = savedNotice(v.saved, confirmable);
      return { ...v, userMessage: notice, agentContext: notice };
    }
    case "post-shell":
      if (ws.root) (await import("./consent.ts")).confirmRun(ws.root, ev);
      return { decision: "ALLOW", code: "HOOK_RUN_CONFIRMED", reason: "the tool ran; what guard saved before it stands" };
    case "prompt":
    case "session-end": {
      const back = ws.root ? await putBack(host, ev, ws.root) : undefined;
      return { decision: "ALLOW", code: "HOOK_OBSERVED", reason: `${ev.event} is observed, not gated`, ...(back ? { userMessage: back } : {}) };
    }
    case "pre-edit": {
      const { checkEdit } = await import("./edit-check.ts");
      const base = checkEdit(ev.filePaths ?? [], { cwd: ev.cwd, root: ws.root, home: homedir() });
      if (base.decision !== "ALLOW" || !ws.root) return base;
      const root = ws.root;
      // History: does the edit remove code a human decision protects? (ASK where the host can ask.)
      const { whyPreEdit } = await import("./why-check.ts");
      const why = await whyPreEdit(ev, root, host.canAsk);
      if (why) return why;
      if (!taskOpen(root)) return base;
      const { preEditScopeCheck } = await import("../act/gate/host.ts");
      const scoped = combine((ev.filePaths ?? []).map((p) => preEditScopeCheck(root, ev.sessionId, resolve(ev.cwd, p))));
      return scoped.decision === "ALLOW" ? base : scoped;
    }
    case "stop":
      return decideStop(host, ev, ws);
    case "pre-read":
      return { decision: "ALLOW", code: "READ_OK", reason: "no secret file and no credential in what is read (leak-check.ts)" };
    default:
      return { decision: "ALLOW", code: "HOOK_OBSERVED", reason: `${ev.event} is observed, not gated` };
  }
}

/** Compensations of this session whose command never ran are put back when the turn or session ends. */
async function putBack(host: HostRecord, ev: HookEvent, root: string): Promise<string | undefined> {
  if (host.confirmsRun !== "post-tool") return undefined;
  const why = ev.event === "stop" ? "the turn ended without it" : ev.event === "prompt" ? "a new prompt came first" : "the session ended without it";
  return (await import("./consent.ts")).putBackUnrun(root, ev.sessionId, why);
}

/** The stop gate fails closed: whatever keeps it from deciding blocks the stop with the reason (a few times, then the user is told). */
async function decideStop(host: HostRecord, ev: HookEvent, ws: WorkspaceFound | WorkspaceRefused): Promise<HookVerdict> {
  const at = { cwd: ev.cwd, root: ws.root };
  if (ws.code === "WORKSPACE_NO_CWD") return undecidableStop("STOP_NO_CWD", ws.reason, "check the folder the host reports for this session", at);
  if (!ws.root && ev.cwdFromProcess)
    return undecidableStop("STOP_NO_CWD", `the payload names no folder and guard was started in ${ev.cwd}, which is not in a git repository`, "start the hook in the project's folder", at);
  if (!ws.root || ws.source !== "repository") return { decision: "ALLOW", code: "STOP_NO_REPO", reason: `${ev.cwd} is not in a git repository guard works in; no stop gate` };
  // A sub-agent's stop does not end the turn: a sibling sub-agent may be between its hook and its command.
  const back = ev.hostEvent === "subagent-stop" ? undefined : await putBack(host, ev, ws.root);
  const gated = await stopVerdict(ev, ws.root, at);
  return back ? { ...gated, userMessage: gated.userMessage ? `${back}\n${gated.userMessage}` : back } : gated;
}

async function stopVerdict(ev: HookEvent, root: string, at: { cwd: string; root?: string }): Promise<HookVerdict> {
  try {
    // An open task (guard pre): unapproved edits run guard post, REVISE blocks the stop.
    const gate = taskOpen(root) ? await (await import("../act/gate/host.ts")).stopGate(root, ev.sessionId) : undefined;
    if (gate) return settled(gate, ev.cwd, root);
    const { stopGate } = await import("./stop-gate.ts");
    const verdict = await stopGate({ root, sessionId: ev.sessionId, stopHookActive: ev.stopHookActive });
    if (verdict.decision === "BLOCK" && verdict.unrecorded) return countedBlock(verdict, `its state could not be saved: ${verdict.unrecorded}`, at);
    return settled(verdict, ev.cwd, root);
  } catch (e) {
    const why = describeError(e);
    return undecidableStop("STOP_GATE_FAILED", `the stop gate failed (${why})`, fixFor(e), at);
  }
}

/** A stop the gate decided: a run of undecidable stops is over. */
function settled<T extends HookVerdict>(v: T, cwd: string, root: string): T {
  clearStopFaults(cwd, root);
  return v;
}

/** What to do about a failure of the stop gate, by what failed. */
function fixFor(e: unknown): string {
  if (isGuardError(e) && e.code === "E_SESSION") return "a human should look at it (agents may not edit .guard/); removing .guard/session.json closes the task";
  return systemTodo(e)?.replace("run it again", "stop again") ?? "run `guard doctor` to see what is wrong";
}

const taskOpen = (root: string) => existsSync(join(root, ".guard", "session.json"));

function malformed(ev: HookEvent, why: string): HookVerdict {
  if (BLOCKING_EVENTS.includes(ev.event)) return { decision: "BLOCK", code: "HOOK_BAD_PAYLOAD", reason: `${why}; blocked because guard cannot tell what would run` };
  return { decision: "ALLOW", code: "HOOK_BAD_PAYLOAD", reason: why };
}

function internalError(ev: HookEvent, e: unknown): HookVerdict {
  const why = describeError(e);
  if (BLOCKING_EVENTS.includes(ev.event)) return { decision: "BLOCK", code: "HOOK_INTERNAL", reason: `guard failed while checking this (${why}); blocked to be safe` };
  return { decision: "ALLOW", code: "HOOK_INTERNAL", reason: `guard failed: ${why}`, userMessage: `guard: ${why}` };
}

/** SANITIZE reaches a host only with the input to run instead, and only one that takes it back; elsewhere it is ASK. */
function sanitizeOrAsk(host: HostRecord, v: HookVerdict): HookVerdict {
  if (v.decision !== "SANITIZE" || (host.updatesInput && v.updatedInput)) return v;
  const { updatedInput: _, ...rest } = v;
  return { ...rest, decision: "ASK" };
}

/** A host that cannot put a question to the human gets BLOCK, with the reason saying a human has to decide. */
function askOrBlock(host: HostRecord, v: HookVerdict): HookVerdict {
  if (v.decision !== "ASK" || host.canAsk) return v;
  return { ...v, decision: "BLOCK", reason: `${v.reason}; a human has to decide and ${host.name} cannot ask, so guard blocks it (run it yourself if it is intended)` };
}

function finish(started: number, ev: HookEvent, verdict: HookVerdict, answer: HookAnswer, known: boolean): HandleResult {
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  const root = workspaceOf(ev.cwd).root;
  const extra = verdict as HookVerdict & { cached?: boolean; ran?: boolean; level?: string };
  try {
    appendEvent(root ?? guardHome(), {
      type: `hook.${known ? ev.event : "unknown"}`,
      host: ev.host,
      hostEvent: ev.hostEvent,
      event: ev.event,
      session: ev.sessionId ?? null,
      tool: ev.tool,
      ...(ev.filePaths?.length ? { files: ev.filePaths.map((p) => redactForLog(resolve(ev.cwd, p))) } : {}),
      decision: verdict.decision,
      code: verdict.code,
      reason: redactForLog(verdict.reason.split("\n")[0] ?? ""),
      latencyMs,
      ...(extra.level ? { level: extra.level, cached: extra.cached, ran: extra.ran } : {}),
    });
  } catch {
    // The log is best effort here: the answer to the host matters more than the record of it.
  }
  return { answer, verdict, event: ev, latencyMs };
}
