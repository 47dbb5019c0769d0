/**
 * A one-line progress bar on stderr, only when stderr is a terminal and the output is not JSON. Redraws
 * at most every 80 ms and clears itself when done.
 */
export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

export function progressBar(label: string, enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled || !stream.isTTY) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  const width = 28;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      const frac = total === 0 ? 1 : done / total;
      const fill = Math.round(frac * width);
      stream.write(`\r${label} [${"#".repeat(fill)}${".".repeat(width - fill)}] ${done}/${total}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write("\r\u001b[2K");
    },
  };
}
