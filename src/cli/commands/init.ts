import type { CommandSpec } from "../command.ts";
import { GuardError } from "../errors.ts";

export const init: CommandSpec = {
  name: "init",
  summary: "(being built)",
  examples: ["guard init"],
  async action() {
    throw new GuardError("guard init is not built yet");
  },
};
