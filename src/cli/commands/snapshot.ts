import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const snapshot: CommandSpec = {
  name: "snapshot <action> [id]",
  summary: "List or restore the git snapshots guard took before overwrites (list | restore <id>)",
  options: [{ flags: "--json", description: "Print the result as JSON" }],
  examples: ["guard snapshot list", "guard snapshot restore 20261201-101502-ab12cd"],
  async action([action, id], options) {
    const { resolve } = await import("node:path");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(resolve(options.cwd ?? "."));
    const snap = await import("../../act/snapshot/snapshot.ts");
    const report = await import("../../report/snapshot.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    if (action === "list") {
      const list = snap.listSnapshots(root);
      if (options.json) printJson(report.snapshotListEnvelope(list));
      else process.stdout.write(report.formatSnapshotList(list));
      return EXIT.OK;
    }
    if (action === "restore") {
      if (!id) throw new GuardError("guard snapshot restore needs an id", undefined, "see `guard snapshot list`", EXIT.USAGE, "E_USAGE");
      const r = snap.restoreSnapshot(root, id);
      if (options.json) printJson(report.snapshotRestoreEnvelope(r));
      else process.stdout.write(report.formatSnapshotRestore(r));
      return EXIT.OK;
    }
    throw new GuardError(`unknown snapshot action: ${action}`, undefined, "use list or restore", EXIT.USAGE, "E_USAGE");
  },
};
