/**
 * A package.json script with the other scripts it runs spelled out: `npm run test:unit && npm run
 * test:types` becomes `c8 --100 node --test && tstyche`, so guard sees the runner a project really uses.
 * Follows `npm run x`, `npm run-script x`, `pnpm [run] x`, `yarn [run] x` and `bun run x`, three levels deep.
 */
export function expandedScript(scripts: Record<string, unknown> | undefined, name = "test", depth = 3): string {
  const own = scripts?.[name];
  if (typeof own !== "string") return "";
  if (depth === 0) return own;
  return own.replace(/\b(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?|bun\s+run)\s+([\w:.-]+)/g, (whole, ref: string) =>
    typeof scripts?.[ref] === "string" && ref !== name ? expandedScript(scripts, ref, depth - 1) : whole,
  );
}
