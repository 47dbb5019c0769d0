import type * as v from "valibot";
import type { Decision } from "../kernel/decision.ts";

/** The events guard understands, whatever the host calls them. */
export const GUARD_EVENTS = ["pre-shell", "post-shell", "pre-edit", "pre-read", "post-edit", "stop", "prompt", "session-start", "session-end"] as const;
export type GuardEventName = (typeof GUARD_EVENTS)[number];

/** Events where a wrong "allow" lets something happen: an unreadable payload there is answered with BLOCK. */
export const BLOCKING_EVENTS: readonly GuardEventName[] = ["pre-shell", "pre-edit", "pre-read"];

/** A host's payload, decoded into guard's terms. */
export interface HookEvent {
  host: string;
  /** The host event it came from, as named on guard's command line (e.g. "pre-tool-use"). */
  hostEvent: string;
  event: GuardEventName;
  sessionId?: string;
  cwd: string;
  /** The payload named no folder: `cwd` is the one guard was started in. */
  cwdFromProcess?: boolean;
  /** The tool the host named, when it named one. */
  tool?: string;
  /** The host's id for this one tool call, shared by its pre- and post-tool events. */
  toolUseId?: string;
  command?: string;
  /** Absolute or cwd-relative paths the tool will write (pre-read: read). */
  filePaths?: string[];
  /** The tool's input as the host sent it, for a host that can take back a rewritten one (`updatesInput`). */
  toolInput?: Record<string, unknown>;
  proposedContent?: string;
  /**
   * The whole file as the tool would leave it can be derived: `proposedContent` is the full new content
   * (a Write), or `edits` apply to the current content (an Edit / MultiEdit). Hosts that send neither get
   * no content checks, only path checks.
   */
  wholeFile?: boolean;
  edits?: TextEdit[];
  /** Claude Code / Codex / Copilot CLI: this stop follows a stop that a hook blocked. */
  stopHookActive?: boolean;
}

/** One string replacement a host's edit tool will make. */
export interface TextEdit {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** What the host process reads back from guard. */
export interface HookAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A compensation guard made before the command runs: what was saved and the exact undo command. */
export interface SavedBeforeRun {
  kind: "relocate" | "snapshot" | "save-modes";
  txid: string;
  restore: string;
  paths: string[];
}

/**
 * A decision plus what the host should show: `userMessage` is for the human (stop gate releases,
 * compensations), `agentContext` is added to what the model reads without blocking anything.
 */
export interface HookVerdict extends Decision {
  userMessage?: string;
  /** SANITIZE: the tool input to run instead (credentials redacted), for a host with `updatesInput`. */
  updatedInput?: Record<string, unknown>;
  agentContext?: string;
  saved?: SavedBeforeRun[];
}

export interface DecodeContext {
  /** The directory guard was started in (hosts start hooks in the project root). */
  processCwd: string;
}

/** One event of a host, as guard installs and answers it. */
export interface HostEventSpec {
  /** Name on guard's command line: `guard agent-event <host> <id>`. */
  id: string;
  /** The host's own event name, as written into its config. */
  native: string;
  /** Guard events this host event can become (a tool event becomes pre-shell or pre-edit by tool). */
  maps: readonly GuardEventName[];
  /** Tool matcher written beside the entry, where the host supports one. */
  matcher?: string;
  /** Extra keys for the entry (timeouts, fail-closed flags, loop limits). */
  entryExtra?: Record<string, unknown>;
  schema: v.GenericSchema;
  /** Payload (already valid against `schema`) → guard event; `undefined` = a tool guard does not gate. */
  decode(payload: any, ctx: DecodeContext): Omit<HookEvent, "host" | "hostEvent"> | undefined;
  /** Installed by default (false for events guard only observes, to keep hooks cheap). */
  installByDefault?: boolean;
}

export type Scope = "local" | "shared" | "global";

/** How the host's config file is laid out; see install/layouts.ts. */
export type ConfigLayout =
  | { kind: "nested-json"; commandKey?: string; top?: Record<string, unknown>; hookExtra?: Record<string, unknown> }
  | { kind: "flat-json"; commandKey?: string; top?: Record<string, unknown>; hookExtra?: Record<string, unknown> }
  | { kind: "kiro-list" }
  | { kind: "plugin-file" };

export interface VerifiedFact {
  fact: string;
  status: "verified" | "third-party" | "unverified";
  source?: string;
}

/**
 * One tool the host names, with a payload for the record's tool event ("$ROOT" stands for the repository)
 * and what guard makes of it; test/hosts/tool-examples.test.ts runs every example through the handler.
 */
export interface ToolExample {
  event: string;
  tool: string;
  payload: Record<string, unknown>;
  becomes: GuardEventName | "not-gated" | "refused";
}

export interface HostRecord {
  id: string;
  name: string;
  docs: string;
  /** Evidence the host is used here (files or dirs that exist), empty when not detected. */
  detect(root: string, home: string): string[];
  /** Config file per scope; a function of the repository root and the home directory. */
  configs: Partial<Record<Scope, (root: string, home: string) => string>>;
  /** Where a scope was not given, which one install uses. */
  defaultScope: Scope;
  layout: ConfigLayout;
  events: HostEventSpec[];
  /** Can the host put a question to the human? If not, ASK becomes BLOCK with the reason. */
  canAsk: boolean;
  /** The host runs a tool with the input a pre-tool hook hands back (so a Write can be SANITIZEd, not asked about). */
  updatesInput?: boolean;
  /** "set": guard writes the host's fail-closed option; "inherent": the host fails closed by itself. */
  failClosed: "set" | "inherent" | "none";
  encode(verdict: HookVerdict, ev: HookEvent): HookAnswer;
  /** The host's tool names guard knows (and a few it must not mistake), with examples that run as tests. */
  tools: ToolExample[];
  /**
   * How guard learns that a command it compensated for really ran: "post-tool" = the host's post-tool
   * event (a compensation never confirmed by the end of the turn is put back); "none" = no such event is
   * installed, the compensation stays and the user is told the undo command.
   */
  confirmsRun: "post-tool" | "none";
  /**
   * What the host does with a hook config that is not valid JSON, as the end of a sentence after the host's
   * name ("ignores the whole file, so no hook in it runs" when not set).
   */
  damagedConfig?: string;
  /** What guard cannot cover on this host (shown by doctor and status). */
  gaps: string[];
  facts: VerifiedFact[];
}
