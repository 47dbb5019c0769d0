import type { Channel } from "./types.ts";

/**
 * Where a payload is about to go. SANITIZE where the payload can be rewritten before it leaves, BLOCK
 * for what becomes remote history, ASK where neither. A channel not listed here is BLOCK.
 */
export const CHANNELS: Channel[] = [
  { id: "llm-request", description: "a prompt or tool result sent to a model provider", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "SANITIZE" },
  { id: "file-write", description: "content an agent writes into a file", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "ALLOW" },
  { id: "forge-comment", description: "a comment on a forge (GitHub, GitLab, ...)", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "SANITIZE" },
  { id: "issue-body", description: "the body of an issue", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "SANITIZE" },
  { id: "pr-description", description: "a pull or merge request description", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "SANITIZE" },
  { id: "git-commit-message", description: "a commit message (history once pushed)", rewritable: false, decision: "BLOCK", references: "ALLOW", hostPaths: "ASK" },
  { id: "git-push-payload", description: "what a push sends (remote history)", rewritable: false, decision: "BLOCK", references: "ALLOW", hostPaths: "ASK" },
  { id: "shell-stdout", description: "a command's output returned to the agent", rewritable: true, decision: "SANITIZE", references: "ALLOW", hostPaths: "ALLOW" },
  { id: "shell-file-redirect", description: "output a shell redirect writes to a file", rewritable: false, decision: "ASK", references: "ALLOW", hostPaths: "ALLOW" },
  { id: "archive-upload", description: "an archive about to be uploaded", rewritable: false, decision: "ASK", references: "ASK", hostPaths: "ASK" },
  { id: "process-argv", description: "the arguments of a process about to start", rewritable: false, decision: "ASK", references: "ASK", hostPaths: "ALLOW", commandLine: true },
];

export const channelById = (id: string): Channel | undefined => CHANNELS.find((c) => c.id === id);
