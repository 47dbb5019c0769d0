/** One-sided 95% upper bound on a binomial rate (Clopper-Pearson), by bisection on the CDF. */
export function upperBound95(x: number, n: number): number {
  if (n === 0) return 1;
  if (x >= n) return 1;
  const cdf = (p: number) => {
    let s = 0;
    let term = Math.pow(1 - p, n);
    for (let k = 0; k <= x; k++) {
      s += term;
      term = (term * (n - k) * p) / ((k + 1) * (1 - p));
    }
    return s;
  };
  let lo = x / n;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) > 0.05) lo = mid;
    else hi = mid;
  }
  return hi;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
