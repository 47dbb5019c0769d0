import type { Node } from "web-tree-sitter";

/**
 * The part of tree-sitter's Node API guard's shell walker reads. A web-tree-sitter Node fits it, and so
 * does a PlainNode: the same tree as plain data, sent by the parse worker, so one walker serves both.
 */
export interface SyntaxNode {
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  readonly childCount: number;
  readonly children: readonly SyntaxNode[];
  readonly namedChildren: readonly SyntaxNode[];
  readonly nextSibling: SyntaxNode | null;
  readonly lastChild: SyntaxNode | null;
  child(index: number): SyntaxNode | null;
  fieldNameForChild(index: number): string | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): SyntaxNode[];
  /** Pre-order, the node itself included when it matches (as tree-sitter does). */
  descendantsOfType(types: string | string[]): SyntaxNode[];
}

/** A parsed tree the walker reads and then frees (a no-op for a plain tree). */
export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}

/**
 * A node on the wire: [type, flags, start, end, field, children]. flags: 1 named, 2 has an error.
 * start/end index the source in UTF-16 code units (web-tree-sitter's startIndex/endIndex); field is the
 * child's field name in its parent, or 0.
 */
export type PlainData = [string, number, number, number, string | 0, PlainData[]];

/** The wire form of a tree-sitter node and everything under it. */
export function toPlainData(node: Node, field: string | null = null, parentHasError = true): PlainData {
  const hasError = parentHasError && node.hasError;
  const kids: PlainData[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c) kids.push(toPlainData(c, node.fieldNameForChild(i), hasError));
  }
  return [node.type, (node.isNamed ? 1 : 0) | (hasError ? 2 : 0), node.startIndex, node.endIndex, field ?? 0, kids];
}

class Builder {
  constructor(readonly source: string) {}
}

/** Ids are unique across every plain tree of the process, as a walker that nests trees (`sh -c`) expects. */
let nextId = 1;

/** A node of a tree received as plain data. */
export class PlainNode implements SyntaxNode {
  readonly id: number;
  readonly type: string;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  readonly children: PlainNode[];
  readonly fields: (string | null)[];
  parent: PlainNode | null = null;
  private index = 0;
  private readonly start: number;
  private readonly end: number;
  private namedCache: PlainNode[] | undefined;

  constructor(data: unknown, private readonly b: Builder) {
    if (!Array.isArray(data) || data.length !== 6) throw new Error("a tree node is not [type, flags, start, end, field, children]");
    const [type, flags, start, end, field, kids] = data as unknown[];
    if (typeof type !== "string" || typeof flags !== "number" || !Number.isInteger(start) || !Number.isInteger(end) || !Array.isArray(kids))
      throw new Error("a tree node has the wrong types");
    if ((start as number) < 0 || (end as number) < (start as number) || (end as number) > b.source.length) throw new Error("a tree node lies outside the source");
    if (field !== 0 && typeof field !== "string") throw new Error("a tree node's field is not a name");
    this.id = nextId++;
    this.type = type;
    this.isNamed = (flags & 1) !== 0;
    this.hasError = (flags & 2) !== 0;
    this.start = start as number;
    this.end = end as number;
    this.children = kids.map((k) => new PlainNode(k, b));
    this.fields = kids.map((k) => ((k as unknown[])[4] === 0 ? null : ((k as unknown[])[4] as string)));
    this.children.forEach((c, i) => {
      c.parent = this;
      c.index = i;
    });
  }

  get text(): string {
    return this.b.source.slice(this.start, this.end);
  }
  get childCount(): number {
    return this.children.length;
  }
  get namedChildren(): PlainNode[] {
    return (this.namedCache ??= this.children.filter((c) => c.isNamed));
  }
  get nextSibling(): PlainNode | null {
    return this.parent?.children[this.index + 1] ?? null;
  }
  get lastChild(): PlainNode | null {
    return this.children[this.children.length - 1] ?? null;
  }
  child(index: number): PlainNode | null {
    return this.children[index] ?? null;
  }
  fieldNameForChild(index: number): string | null {
    return this.fields[index] ?? null;
  }
  childForFieldName(name: string): PlainNode | null {
    const i = this.fields.indexOf(name);
    return i < 0 ? null : this.children[i]!;
  }
  childrenForFieldName(name: string): PlainNode[] {
    return this.children.filter((_, i) => this.fields[i] === name);
  }
  descendantsOfType(types: string | string[]): PlainNode[] {
    const wanted = new Set(typeof types === "string" ? [types] : types);
    const out: PlainNode[] = [];
    const visit = (n: PlainNode) => {
      if (wanted.has(n.type)) out.push(n);
      for (const c of n.children) visit(c);
    };
    visit(this);
    return out;
  }
}

/** The tree `data` describes over `source`; throws on anything that is not a well-formed tree of it. */
export function plainTree(source: string, data: unknown): SyntaxTree {
  return { rootNode: new PlainNode(data, new Builder(source)), delete() {} };
}
