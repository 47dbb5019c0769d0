import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const trash: CommandSpec = {
  name: "trash <action> [txid]",
  summary: "List, show, restore or clean up guard's trash (list | show <txid> | restore <txid> | gc)",
  options: [
    { flags: "--json", description: "Print the result as JSON" },
    { flags: "--force", description: "restore: move what now sits at a deleted item's place to the trash first (a rewritten file is always put aside, no --force needed)" },
    { flags: "--execute", description: "gc: really delete (default: show what would go)" },
  ],
  examples: ["guard trash list", "guard trash show 20261201-101502-ab12cd", "guard trash restore 20261201-101502-ab12cd --force", "guard trash gc --execute"],
  async action([action, txid], options) {
    const { resolve } = await import("node:path");
    const { findWorkspaceRoot } = await import("../../decide/shell/classify.ts");
    const { realpathSync } = await import("node:fs");
    const root = realpathSync(findWorkspaceRoot(resolve(options.cwd ?? ".")));
    const report = await import("../../report/trash.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const needTxid = () => {
      if (!txid) throw new GuardError(`guard trash ${action} needs a txid`, undefined, "see `guard trash list`", EXIT.USAGE, "E_USAGE");
      return txid;
    };
    switch (action) {
      case "list": {
        const { listDamaged, listManifests } = await import("../../act/trash/manifest.ts");
        const { summarize } = await import("../../act/trash/status.ts");
        const list = listManifests(root).map((m) => summarize(root, m));
        const damaged = listDamaged(root);
        if (options.json) printJson(report.trashListEnvelope(list, damaged));
        else process.stdout.write(report.formatTrashList(root, list, damaged));
        return EXIT.OK;
      }
      case "show": {
        const { requireManifest } = await import("../../act/trash/restore.ts");
        const { whereIs } = await import("../../act/trash/status.ts");
        const manifest = requireManifest(root, needTxid());
        const shown = { manifest, where: manifest.items.map((it) => whereIs(root, manifest, it)) };
        if (options.json) printJson(report.trashShowEnvelope(shown));
        else process.stdout.write(report.formatTrashShow(root, shown));
        return EXIT.OK;
      }
      case "restore": {
        const { restore } = await import("../../act/trash/restore.ts");
        const r = restore(root, needTxid(), { force: options.force === true });
        if (options.json) printJson(report.restoreEnvelope(r));
        else process.stdout.write(report.formatRestore(root, r));
        return r.lost.length ? EXIT.ERROR : EXIT.OK;
      }
      case "gc": {
        const { planGc, executeGc } = await import("../../act/trash/gc.ts");
        const { DEFAULTS, loadConfig } = await import("../../state/config.ts");
        const cfg = loadConfig(root).trash ?? {};
        const plan = planGc(root, { maxAgeDays: cfg.maxAgeDays ?? DEFAULTS.trash.maxAgeDays, maxBytes: cfg.maxBytes ?? DEFAULTS.trash.maxBytes });
        const execute = options.execute === true;
        const done = execute ? executeGc(root, plan) : undefined;
        if (options.json) printJson(report.gcEnvelope(plan, done));
        else process.stdout.write(report.formatGc(plan, done));
        return EXIT.OK;
      }
      default:
        throw new GuardError(`unknown trash action: ${action}`, undefined, "use list, show, restore or gc", EXIT.USAGE, "E_USAGE");
    }
  },
};
