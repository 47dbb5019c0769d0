import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const rm: CommandSpec = {
  name: "rm [...paths]",
  summary: "Delete safely: move paths into guard's trash (restore with `guard trash restore <txid>`)",
  options: [
    { flags: "--reason <text>", description: "Why, recorded in the trash manifest and the audit log" },
    { flags: "--json", description: "Print the transaction as JSON" },
  ],
  examples: ["guard rm build/old-report.txt src/legacy", "guard rm --reason 'replaced by v2' -- -weird-name"],
  allowUnknownOptions: true,
  async action(args, options) {
    const paths = [...args, ...((options["--"] as string[] | undefined) ?? []).map(String)];
    if (paths.length === 0) throw new GuardError("no paths to delete", undefined, "e.g. `guard rm build/tmp`", EXIT.USAGE, "E_USAGE");
    const { resolve } = await import("node:path");
    const { resolveWorkspace } = await import("../../state/workspace.ts");
    const { makeWorkspace, placeOf, resolveTarget } = await import("../../decide/shell/places.ts");
    const { homedir } = await import("node:os");
    const cwd = resolve(options.cwd ?? ".");
    const home = process.env.HOME ?? homedir();
    const found = resolveWorkspace(cwd, { home });
    if (!found.root) throw new GuardError("refusing to delete anything here", found.reason, "nothing was moved", EXIT.BLOCKED, "E_NO_WORKSPACE");
    const ws = makeWorkspace(found.root, home);
    const targets = paths.map((p) => {
      const t = resolveTarget(p, cwd);
      return { ...t, place: t.path ? placeOf(t.path, ws) : undefined };
    });
    const refused = targets.filter((t) => t.unresolved || t.place !== "workspace");
    if (refused.length) {
      const t = refused[0]!;
      const why = t.unresolved ? `cannot resolve it (${t.unresolved})` : t.place === "git-dir" ? "it is inside .git" : t.place === "guard-state" ? "it is guard's own state" : t.place === "protected-root" ? "it is the workspace, an ancestor of it, your home or a system directory" : "it is outside the workspace, where guard keeps no trash";
      throw new GuardError(`refusing to delete ${t.raw}`, why, "nothing was moved", EXIT.BLOCKED, "E_RM_REFUSED");
    }
    const present = targets.filter((t) => t.exists);
    const missing = targets.filter((t) => !t.exists).map((t) => t.path!);
    if (present.length === 0) throw new GuardError("nothing to delete", `not found: ${missing.join(", ")}`, undefined, EXIT.ERROR, "E_NOT_FOUND");
    const { relocate } = await import("../../act/trash/relocate.ts");
    const { DEFAULTS, loadConfig } = await import("../../state/config.ts");
    const unique = [...new Set(present.map((t) => t.path!))].sort();
    const nonNested = unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(`${q}/`)));
    const maxBytes = loadConfig(ws.root).trash?.maxBytes ?? DEFAULTS.trash.maxBytes;
    const m = relocate(ws.root, nonNested, { reason: options.reason ? String(options.reason) : "guard rm", command: `guard rm ${paths.length} path(s)`, maxBytes });
    const report = { txid: m.txid, moved: m.items.filter((i) => i.state === "moved").map((i) => i.original), missing, restore: `guard trash restore ${m.txid}` };
    const { rmEnvelope, formatRm } = await import("../../report/trash.ts");
    if (options.json) (await import("../../kernel/envelope.ts")).printJson(rmEnvelope(report));
    else process.stdout.write(formatRm(ws.root, report));
    return EXIT.OK;
  },
};
