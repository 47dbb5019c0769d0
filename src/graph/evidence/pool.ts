/** Run `jobs` with at most `width` at once. */
export async function runPool(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, jobs.length)) }, lane));
}
