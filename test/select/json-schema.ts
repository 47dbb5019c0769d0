/**
 * A validator for the part of JSON Schema guard's shipped schemas use (type, const, enum, required,
 * properties, items, minItems, minimum, maximum). Returns the first problems found as "at a.b: …".
 */
type Schema = Record<string, unknown>;

export function validate(schema: Schema, value: unknown, path = "$"): string[] {
  const errs: string[] = [];
  const t = schema.type as string | undefined;
  const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);
  if (t) {
    const actual = typeOf(value);
    const ok = t === actual || (t === "number" && actual === "integer");
    if (!ok) return [`at ${path}: expected ${t}, got ${actual}`];
  }
  if ("const" in schema && value !== schema.const) errs.push(`at ${path}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errs.push(`at ${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) errs.push(`at ${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) errs.push(`at ${path}: above ${schema.maximum}`);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) errs.push(`at ${path}: missing ${r}`);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, s] of Object.entries(props)) if (k in obj && obj[k] !== undefined) errs.push(...validate(s, obj[k], `${path}.${k}`));
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) errs.push(`at ${path}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((v, i) => errs.push(...validate(schema.items as Schema, v, `${path}[${i}]`)));
  }
  return errs.slice(0, 10);
}
