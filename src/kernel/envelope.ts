/**
 * The one envelope every `--json` output uses. `schemaVersion` changes only when a field's meaning
 * changes; adding a field keeps it.
 */
export const SCHEMA_VERSION = 1;

export interface Envelope<T> {
  schemaVersion: number;
  kind: string;
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}

export function envelope<T>(kind: string, data: T, ok = true): Envelope<T> {
  return { schemaVersion: SCHEMA_VERSION, kind, ok, data };
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
