import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GIT_ENV } from "../helpers/repo.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { startResponsesStandIn, type ResponsesItem, type ResponsesRequest } from "./responses-stand-in.ts";

export interface CodexSession {
  exitCode: number;
  /** `codex exec --json` events. */
  lines: any[];
  /** What each tool call returned to the model (function_call_output), in order. */
  outputs: string[];
  requests: ResponsesRequest[];
  stderr: string;
}

export const exec = (cmd: string): ResponsesItem[] => [{ type: "call", name: "exec_command", arguments: { cmd } }];
export const reply = (text: string): ResponsesItem[] => [{ type: "text", text }];
/** An apply_patch call; Codex offers the tool only for a model it knows (see PATCH_MODEL). */
export const patch = (text: string): ResponsesItem[] => [{ type: "custom", name: "apply_patch", input: text }];
/** A model name Codex 0.171.0 knows to take apply_patch (a freeform tool); the stand-in answers for it. */
export const PATCH_MODEL = "gpt-5.5";

/** Every text the model was sent in a request (prompts, tool outputs, hook feedback). */
export const inputTexts = (req: ResponsesRequest): string[] => JSON.stringify(req.body.input ?? []).split("\\n");

/**
 * One `codex exec` session in `root` against the stand-in Responses API. The stand-in is configured as a
 * model provider in a throwaway CODEX_HOME's config.toml; the project is marked trusted there (Codex loads
 * a project's .codex/hooks.json only in a trusted project), and hook trust is bypassed for the run (a new
 * hook otherwise waits for review in /hooks and does not run: see the codex record).
 */
export async function runCodex(root: string, home: string, script: (turn: number, req: ResponsesRequest) => ResponsesItem[] | undefined, path: string[] = [], model = "stand-in"): Promise<CodexSession> {
  const codex = hostCli(HOST_CLIS.codex);
  const api = startResponsesStandIn(script);
  try {
    const codexHome = join(home, ".codex");
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, "config.toml"),
      `model = "${model}"\nmodel_provider = "standin"\n\n[model_providers.standin]\nname = "stand-in"\nbase_url = "${api.url}"\nenv_key = "STANDIN_API_KEY"\nwire_api = "responses"\n\n[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n`,
    );
    const p = Bun.spawn([codex, "exec", "--json", "--dangerously-bypass-hook-trust", "-s", "workspace-write", "do the task"], {
      cwd: root,
      env: { ...process.env, ...GIT_ENV, HOME: home, CODEX_HOME: codexHome, STANDIN_API_KEY: "stand-in-key", PATH: [...path, process.env.PATH ?? "/usr/bin:/bin"].join(":") },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const lines = out.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l));
    const outputs = api.requests.at(-1)?.outputs.map((o) => o.output) ?? [];
    return { exitCode: p.exitCode ?? -1, lines, outputs, requests: api.requests, stderr };
  } finally {
    api.stop();
  }
}
