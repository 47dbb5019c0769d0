import type { CommandSpec } from "../command.ts";

export const parse: CommandSpec = {
  name: "parse <file>",
  summary: "Print the outline (functions, classes, methods, line ranges) tree-sitter reads from a file",
  options: [{ flags: "--json", description: "Print the outline as JSON" }],
  examples: ["guard parse src/app.py", "guard parse src/server.go --json"],
  async action([file], options) {
    const { parseFile } = await import("../../code/parser.ts");
    const { outline } = await import("../../code/outline.ts");
    const { formatOutline, outlineEnvelope } = await import("../../report/outline.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const { resolve } = await import("node:path");
    const { language, tree } = await parseFile(resolve(options.cwd ?? ".", file!), file!);
    const report = { file: file!, ...outline(language, tree) };
    tree.delete();
    if (options.json) printJson(outlineEnvelope(report));
    else process.stdout.write(formatOutline(report));
    return 0;
  },
};
