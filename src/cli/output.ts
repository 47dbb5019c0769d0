import { EXIT } from "./exit-codes.ts";

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
