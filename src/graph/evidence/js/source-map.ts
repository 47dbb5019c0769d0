/**
 * Just enough of source map v3 to map a generated line to the original lines it came from.
 * Mappings are Base64 VLQ: per generated line, segments [genCol, source, origLine, origCol, name?].
 */
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...B64].map((c, i) => [c, i]));

export interface RawSourceMap {
  sources: string[];
  sourceRoot?: string;
  mappings: string;
}

/** Per generated line (0-based index), the [sourceIndex, originalLine (1-based), generatedColumn] of each segment on it. */
export type LineTable = [number, number, number][][];

function decodeVlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const d = DIGIT.get(c);
    if (d === undefined) return out;
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

export function lineTable(map: RawSourceMap): LineTable {
  const table: LineTable = [];
  let source = 0;
  let origLine = 0;
  let origCol = 0;
  for (const line of map.mappings.split(";")) {
    const row: [number, number, number][] = [];
    // The generated column is relative to the previous segment's on the same line.
    let genCol = 0;
    for (const seg of line.split(",")) {
      if (!seg) continue;
      const f = decodeVlq(seg);
      genCol += f[0] ?? 0;
      if (f.length < 4) continue;
      source += f[1]!;
      origLine += f[2]!;
      origCol += f[3]!;
      row.push([source, origLine + 1, genCol]);
    }
    table.push(row);
  }
  return table;
}

/** The source map a script names in its last `sourceMappingURL` comment, if it is inline (data: URL). */
export function inlineSourceMap(source: string): RawSourceMap | undefined {
  const m = /\/\/[#@] sourceMappingURL=data:application\/json[^,]*?(;base64)?,([^\s'"]+)\s*$/m.exec(source.slice(-Math.min(source.length, 2_000_000)));
  if (!m) return undefined;
  try {
    const text = m[1] ? Buffer.from(m[2]!, "base64").toString("utf8") : decodeURIComponent(m[2]!);
    return JSON.parse(text) as RawSourceMap;
  } catch {
    return undefined;
  }
}

/** The file name of an external source map (`//# sourceMappingURL=a.js.map`). */
export function externalSourceMapName(source: string): string | undefined {
  const m = /\/\/[#@] sourceMappingURL=(?!data:)(\S+)\s*$/m.exec(source.slice(-4096));
  return m?.[1];
}
