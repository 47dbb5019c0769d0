import pkg from "../../package.json" with { type: "json" };
import { describeError, isGuardError, systemTodo } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { answerNow, brokenPipe, exitAfterOutput, readerGone, watchPipes } from "./output.ts";

export const VERSION: string = pkg.version;

export async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  if (isVersion(args)) {
    process.stdout.write(`guard ${VERSION}\n`);
    return EXIT.OK;
  }
  const json = args.includes("--json");
  try {
    if (isPlainCheck(args)) {
      const { check } = await import("./commands/check.ts");
      return await check.action([], { json, list: args.includes("--list"), staged: args.includes("--staged") });
    }
    const { buildCli } = await import("./cli.ts");
    return await buildCli(VERSION).run(argv);
  } catch (e) {
    if (readerGone(e)) brokenPipe();
    const f = failure(e, json);
    if (f.stdout) process.stdout.write(f.stdout);
    process.stderr.write(f.stderr);
    if (!isGuardError(e) && process.env.GUARD_DEBUG) console.error(e);
    return f.code;
  }
}

/**
 * `guard check` with no more than the flags agents and hooks pass runs without the command parser, which
 * costs a fresh process several milliseconds of CPU to build (every command's options and help).
 */
const PLAIN_CHECK_FLAGS = new Set(["--json", "--list", "--staged"]);
const isPlainCheck = (args: string[]) => args[0] === "check" && args.slice(1).every((a) => PLAIN_CHECK_FLAGS.has(a));

const isVersion = (args: string[]) => args.length === 1 && (args[0] === "--version" || args[0] === "-v");

/** A failure that escaped a command, as guard reports it: one line on stderr (and the JSON error with --json). */
function failure(e: unknown, json: boolean): { code: number; stdout: string; stderr: string } {
  const code = isGuardError(e) ? e.exitCode : EXIT.ERROR;
  const todo = isGuardError(e) ? undefined : systemTodo(e);
  const message = `${describeError(e)}${todo ? `; ${todo}` : ""}`;
  const errCode = isGuardError(e) ? e.code : "E_INTERNAL";
  const stdout = json ? `${JSON.stringify({ schemaVersion: 1, kind: "error", ok: false, error: { code: errCode, message } })}\n` : "";
  return { code, stdout, stderr: `guard: ${message}\n` };
}

/**
 * The calls hooks make on every tool call (`agent-event <host> <event>` exactly as guard installs it) and
 * `--version`, answered without the command parser and without node's stdio streams: each costs
 * milliseconds in a fresh process. Any other command line goes through `main`.
 */
async function direct(args: string[]): Promise<number | undefined> {
  if (isVersion(args)) return answerNow(EXIT.OK, `guard ${VERSION}\n`, "");
  const [command, host, event] = args;
  if (args.length !== 3 || command !== "agent-event" || host!.startsWith("-") || event!.startsWith("-")) return undefined;
  try {
    const { agentEventAnswer } = await import("./commands/agent-event.ts");
    const answer = await agentEventAnswer(host!, event!, process.cwd());
    return answerNow(answer.exitCode, answer.stdout, answer.stderr);
  } catch (e) {
    if (!isGuardError(e) && process.env.GUARD_DEBUG) console.error(e);
    const f = failure(e, false);
    return answerNow(f.code, f.stdout, f.stderr);
  }
}

if (import.meta.main) {
  const code = await direct(process.argv.slice(2));
  if (code !== undefined) process.exit(code);
  watchPipes();
  await exitAfterOutput(await main(process.argv));
}
