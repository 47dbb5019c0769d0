import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir, stateDir } from "../state/paths.ts";

/** What the last full recording took, so the next one can say how long it will be. */
interface LastRecording {
  durationMs: number;
  tests: number;
}

const lastFile = (root: string) => join(stateDir(root), "evidence-last.json");

function readLast(root: string): LastRecording | undefined {
  try {
    const v = JSON.parse(readFileSync(lastFile(root), "utf8")) as LastRecording;
    return Number.isFinite(v.durationMs) && Number.isFinite(v.tests) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function rememberRecording(root: string, last: LastRecording): void {
  try {
    ensureStateDir(root);
    writeFileSync(lastFile(root), JSON.stringify(last));
  } catch {
    /* a progress estimate is not worth failing a recording for */
  }
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A line on a terminal while `guard evidence` runs the suite: elapsed time, and the test count and ETA
 * of the last full recording when there was one. Nothing on pipes or with --json.
 */
export function evidenceProgress(root: string, enabled: boolean, stream: NodeJS.WriteStream = process.stderr): { stop(): void } {
  if (!enabled || !stream.isTTY || !existsSync(stateDir(root))) return { stop() {} };
  const last = readLast(root);
  const started = Date.now();
  const draw = () => {
    const elapsed = Date.now() - started;
    const eta = last ? last.durationMs - elapsed : undefined;
    const hint = last
      ? eta !== undefined && eta > 0
        ? `; last time ${last.tests} tests took ${seconds(last.durationMs)}, about ${seconds(eta)} to go`
        : `; last time ${last.tests} tests took ${seconds(last.durationMs)}, nearly done`
      : "";
    stream.write(`\r\u001b[2Krecording evidence: ${seconds(elapsed)}${hint}`);
  };
  const timer = setInterval(draw, 1000);
  draw();
  return {
    stop() {
      clearInterval(timer);
      stream.write("\r\u001b[2K");
    },
  };
}
