import { fstatSync, readSync, writeSync } from "node:fs";
import { EXIT } from "../kernel/exit-codes.ts";

/**
 * guard's answer must reach its reader whole, or the exit code must say it did not. `process.exit` drops
 * what a pipe has not taken yet (a pipe holds 64 KiB; the rest waits in the process), so guard exits only
 * once stdout and stderr have ended, and a reader that goes away (`| head -c`) ends guard the way SIGPIPE
 * ends other programs: quietly, with exit code 141.
 */

const isBrokenPipe = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code === "EPIPE";

/** Exit now, as SIGPIPE would: the reader is gone, nothing more can be said to it. */
export function brokenPipe(): never {
  process.exit(EXIT.BROKEN_PIPE);
}

/** Why stdout could not take the answer (a full disk, a closed descriptor), once it has failed. */
let lost: NodeJS.ErrnoException | undefined;

/**
 * Install once, first: a closed stdout ends guard without a stack trace; any other write error on it
 * (`> /dev/full`) makes the exit code 1; an error on stderr is ignored (there is nowhere left to say it).
 */
export function watchPipes(): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (isBrokenPipe(e)) brokenPipe();
    lost ??= e;
  });
  process.stderr.on("error", () => {});
}

/** Whether an error thrown by a write (for example `Bun.write(Bun.stdout, …)`) means the reader is gone. */
export const readerGone = isBrokenPipe;

function ended(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableEnded) return resolve();
    stream.once("error", () => resolve());
    stream.end(() => resolve());
  });
}

/** Wait until everything written to stdout and stderr has been taken by the reader, then exit with `code`. */
export async function exitAfterOutput(code: number): Promise<never> {
  await ended(process.stdout);
  if (lost) process.stderr.write(`guard: could not write the output (${lost.code ?? lost.message}); it is incomplete\n`);
  await ended(process.stderr);
  process.exit(lost ? EXIT.ERROR : code);
}

/** Write all of `bytes` to `fd` now; a non-blocking reader that is full is waited for, any other error is thrown. */
function writeAllSync(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) {
    try {
      off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      Bun.sleepSync(1);
    }
  }
}

/**
 * The answer of a call that never creates node's stdio streams (their first use costs milliseconds, which a
 * hook pays on every tool call): stdout, then stderr, written synchronously. Returns the exit code, with the
 * same rules as `exitAfterOutput`: a reader that is gone is 141, any other failure to write stdout is 1.
 */
export function answerNow(code: number, stdout: string, stderr: string): number {
  try {
    if (stdout) writeAllSync(1, Buffer.from(stdout, "utf8"));
  } catch (e) {
    if (isBrokenPipe(e)) return EXIT.BROKEN_PIPE;
    const err = e as NodeJS.ErrnoException;
    stderr += `guard: could not write the output (${err.code ?? err.message}); it is incomplete\n`;
    code = EXIT.ERROR;
  }
  try {
    if (stderr) writeAllSync(2, Buffer.from(stderr, "utf8"));
  } catch {
    // Nowhere left to say it.
  }
  return code;
}

/**
 * What was piped to guard on stdin; "" when stdin is a terminal (nothing is piped), /dev/null or closed.
 * Read synchronously: the asynchronous reader starts threads a hook call does not otherwise need.
 */
export function stdinText(): string {
  try {
    // A character device is a terminal or /dev/null: nothing to read (and a terminal would wait for a human).
    if (fstatSync(0).isCharacterDevice()) return "";
  } catch {
    return "";
  }
  const parts: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(65536);
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A non-blocking pipe with nothing in it yet: wait for the writer, keeping what was read.
      if (code === "EAGAIN") {
        Bun.sleepSync(1);
        continue;
      }
      if (code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    parts.push(buf.subarray(0, n));
  }
  return Buffer.concat(parts).toString("utf8");
}
