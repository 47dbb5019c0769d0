import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

/** stdin, but never more than `limit + 1` bytes (enough to know it is too large). */
async function readStdin(limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of Bun.stdin.stream()) {
    chunks.push(chunk);
    total += chunk.length;
    if (total > limit) break;
  }
  return Buffer.concat(chunks);
}

export const leak: CommandSpec = {
  name: "leak <action>",
  summary: "Check (or sanitize) a payload on stdin before it leaves on a channel; never prints what matched",
  options: [
    { flags: "--channel <channel>", description: "llm-request, file-write, forge-comment, issue-body, pr-description, git-commit-message, git-push-payload, shell-stdout, shell-file-redirect, archive-upload, process-argv" },
    { flags: "--json", description: "Print the verdict as JSON (rule ids, offsets and lengths only)" },
  ],
  examples: ["git log -1 --format=%B | guard leak check --channel git-commit-message", "guard leak sanitize --channel llm-request < prompt.txt > safe.txt"],
  async action([action], options) {
    if (action !== "check" && action !== "sanitize") throw new GuardError(`unknown leak action: ${action}`, undefined, "use check or sanitize", EXIT.USAGE, "E_USAGE");
    if (typeof options.channel !== "string") throw new GuardError("--channel is required", undefined, "e.g. --channel llm-request", EXIT.USAGE, "E_USAGE");
    const { checkLeak, MAX_SCAN_BYTES } = await import("../../decide/leak/scan.ts");
    const payload = await readStdin(MAX_SCAN_BYTES);
    const { resolve } = await import("node:path");
    const { findRepoRoot } = await import("../../repo/git.ts");
    const cwd = resolve(options.cwd ?? ".");
    const root = findRepoRoot(cwd);
    let exemptions: string[] = [];
    if (root) {
      const { loadConfig } = await import("../../state/config.ts");
      exemptions = loadConfig(root).leak?.exemptions ?? [];
    }
    const v = checkLeak(payload, options.channel, { exemptions });
    if (root) {
      const { appendEvent } = await import("../../state/events.ts");
      const { createHash } = await import("node:crypto");
      appendEvent(root, { type: "leak.decision", action, channel: v.channel, decision: v.decision, code: v.code, bytes: v.bytes, payloadSha256: createHash("sha256").update(payload).digest("hex"), findings: v.findings, exempted: v.exempted });
    }
    const { leakEnvelope, formatLeak } = await import("../../report/leak.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const rewritten = v.sanitized !== undefined ? Buffer.from(v.sanitized, "latin1") : undefined;
    if (action === "check") {
      if (options.json) printJson(leakEnvelope(v));
      else process.stdout.write(formatLeak(v));
      // The payload may leave as it is only when nothing had to change.
      return v.decision === "ALLOW" ? EXIT.OK : v.decision === "ASK" ? EXIT.ASK : EXIT.BLOCKED;
    }
    if (options.json) printJson(leakEnvelope(v, rewritten?.toString("utf8")));
    else if (rewritten) process.stdout.write(rewritten);
    if (!rewritten) process.stderr.write(`guard: ${v.decision} ${v.code}: ${v.reason}\n`);
    return v.decision === "ASK" ? EXIT.ASK : v.decision === "BLOCK" ? EXIT.BLOCKED : EXIT.OK;
  },
};
