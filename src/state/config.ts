import * as v from "valibot";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../cli/errors.ts";
import { EXIT } from "../cli/exit-codes.ts";

const fraction = (what = "number between 0 and 1") =>
  v.pipe(v.number(`expected ${what}`), v.minValue(0, `expected ${what}`), v.maxValue(1, `expected ${what}`));
const positiveInt = (what: string) =>
  v.pipe(v.number(`expected ${what}`), v.integer(`expected ${what}`), v.minValue(0, `expected ${what}`));
const str = (what = "string") => v.string(`expected ${what}`);
const strict = <T extends v.ObjectEntries>(entries: T) => v.strictObject(entries, "expected an object");

export const BACKENDS = ["embedded", "server", "docker"] as const;
export type Backend = (typeof BACKENDS)[number];

/** The whole configuration, every key optional; defaults live in DEFAULTS below. */
export const ConfigSchema = strict({
  $schema: v.optional(str()),
  engine: v.optional(
    strict({
      backend: v.optional(v.picklist(BACKENDS, `expected one of ${BACKENDS.join(", ")}`)),
      url: v.optional(str("redis:// or rediss:// URL")),
      password: v.optional(str()),
      tls: v.optional(v.boolean("expected true or false")),
      idleTimeoutSeconds: v.optional(positiveInt("whole number of seconds (0 = never stop)")),
      queryTimeoutMs: v.optional(positiveInt("whole number of milliseconds")),
      dockerImage: v.optional(str()),
    }),
  ),
  select: v.optional(
    strict({
      trust: v.optional(strict({ subset: v.optional(fraction()), medium: v.optional(fraction()) })),
      fullRunEvery: v.optional(positiveInt("whole number of runs (0 = never)")),
      fullRunHours: v.optional(positiveInt("whole number of hours (0 = never)")),
    }),
  ),
  trash: v.optional(
    strict({
      maxAgeDays: v.optional(positiveInt("whole number of days")),
      maxBytes: v.optional(positiveInt("whole number of bytes")),
    }),
  ),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

export const DEFAULTS = {
  engine: { backend: "embedded" as Backend, url: "redis://localhost:6379", idleTimeoutSeconds: 1800, queryTimeoutMs: 30000, dockerImage: "falkordb/falkordb:latest" },
  select: { trust: { subset: 0.8, medium: 0.5 }, fullRunEvery: 0, fullRunHours: 0 },
  trash: { maxAgeDays: 14, maxBytes: 2 * 1024 ** 3 },
};

/** Where config can live, later ones overriding earlier ones. */
export function configFiles(root: string): { label: string; path: string }[] {
  return [
    { label: "guard.json", path: join(root, "guard.json") },
    { label: ".guard/config.json", path: join(root, ".guard", "config.json") },
  ];
}

/** Validate one parsed config value; the error names the file and the dotted key. */
export function validateConfig(label: string, value: unknown): Config {
  const r = v.safeParse(ConfigSchema, value);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = v.getDotPath(issue) ?? issue.path?.map((p) => String(p.key)).join(".");
  let msg = issue.message;
  if (issue.kind === "schema" && issue.type === "strict_object" && issue.path) {
    msg = `unknown key (expected one of the documented keys)`;
  }
  const where = path ? `${label} at \`${path}\`` : label;
  throw new GuardError(`${where}: ${msg}`, undefined, undefined, EXIT.ERROR, "E_CONFIG");
}

export function loadConfig(root: string): Config {
  let merged: Config = {};
  for (const { label, path } of configFiles(root)) {
    if (!existsSync(path)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      throw new GuardError(`${label}: not valid JSON (${why})`, undefined, "fix the file or remove it", EXIT.ERROR, "E_CONFIG");
    }
    merged = deepMerge(merged, validateConfig(label, raw));
  }
  return merged;
}

function deepMerge<T extends Record<string, unknown>>(a: T, b: T): T {
  const out: Record<string, unknown> = { ...a };
  for (const [k, val] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      val && typeof val === "object" && !Array.isArray(val) && prev && typeof prev === "object"
        ? deepMerge(prev as Record<string, unknown>, val as Record<string, unknown>)
        : val;
  }
  return out as T;
}
