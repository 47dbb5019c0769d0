// Overloads, getters/setters, class fields, declaration merging and functions nested in them: an edit
// anywhere in one of them names the same id the indexer gives it (the id the graph holds), never a
// `#N` of a declaration that is not a function of its own.
import { describe, expect, test } from "bun:test";
import { extractSource } from "../../src/code/extract/index.ts";
import type { LanguageId } from "../../src/code/grammars.ts";
import { sliceFile } from "../../src/decide/select/slice.ts";

const TS = `export function hasProtocol(input: string): boolean;
export function hasProtocol(input: string, opts: boolean): boolean;
export function hasProtocol(input: string, opts?: boolean): boolean {
  const strict = () => opts === true;
  return /^[a-z]+:/.test(input) && !strict();
}

export class Box {
  get size(): number {
    return 1;
  }
  set size(v: number) {
    void v;
  }
  label = () => "box";
  open(): void;
  open(x?: number): void {
    void x;
  }
}

export namespace Box {
  export function make(): Box {
    return new Box();
  }
}
`;

const PY = `import typing


@typing.overload
def command(name: str) -> int: ...
@typing.overload
def command(name: None = None) -> str: ...
def command(name=None):
    def decorator(f):
        return f
    return decorator


class C:
    @property
    def x(self):
        return 1

    @x.setter
    def x(self, v):
        self._x = v
`;

async function changedIds(path: string, lang: LanguageId, before: string, edit: [string, string]): Promise<string[]> {
  expect(before.includes(edit[0])).toBe(true);
  const s = await sliceFile({ path, status: "modified", oldText: before, newText: before.replace(edit[0], edit[1]), binary: false, untracked: false });
  void lang;
  return s.functions.map((f) => f.id);
}

async function graphIds(path: string, lang: LanguageId, text: string): Promise<string[]> {
  return (await extractSource(path, lang, text)).defs.map((d) => `${path}::${d.qualname}`);
}

describe("one graph id per function, on both sides of a change", () => {
  const ts: [string, [string, string], string][] = [
    ["an overload signature", ["input: string, opts: boolean): boolean;", "input: string, opts: 1 | 0): boolean;"], "src/url.ts::hasProtocol"],
    ["the implementation", ["return /^[a-z]+:/", "return /^[a-z0-9]+:/"], "src/url.ts::hasProtocol"],
    ["a function nested in the implementation", ["opts === true", "opts !== false"], "src/url.ts::hasProtocol.strict"],
    ["a getter", ["return 1;", "return 2;"], "src/url.ts::Box.size"],
    ["a setter", ["void v;", "void (v + 1);"], "src/url.ts::Box.size#2"],
    ["a class field holding a function", ['"box"', '"crate"'], "src/url.ts::Box.label"],
    ["a method's overload signature", ["open(): void;", "open(): number;"], "src/url.ts::Box.open"],
    ["a function of a merged namespace", ["return new Box();", "return new Box() as Box;"], "src/url.ts::make"],
  ];
  for (const [what, edit, id] of ts)
    test(`TypeScript: ${what}`, async () => {
      const graph = await graphIds("src/url.ts", "typescript", TS);
      expect(graph).toContain(id);
      expect(await changedIds("src/url.ts", "typescript", TS, edit)).toEqual([id]);
    });

  const py: [string, [string, string], string][] = [
    ["an @overload stub (its `...` never runs)", ["def command(name: str) -> int: ...", "def command(name: str, /) -> int: ..."], "app/cli.py::command"],
    ["the implementation", ["    return decorator", "    return decorator or None"], "app/cli.py::command"],
    ["the function nested in the implementation", ["        return f\n", "        return f or None\n"], "app/cli.py::command.decorator"],
    ["a property's setter", ["self._x = v", "self._x = v * 2"], "app/cli.py::C.x#2"],
  ];
  for (const [what, edit, id] of py)
    test(`Python: ${what}`, async () => {
      const graph = await graphIds("app/cli.py", "python", PY);
      expect(graph).not.toContain("app/cli.py::command#2");
      expect(graph).toContain(id);
      expect(await changedIds("app/cli.py", "python", PY, edit)).toEqual([id]);
    });
});
