import type { CommandSpec } from "../command.ts";
import { GuardError } from "../errors.ts";

export const engine: CommandSpec = {
  name: "engine <action>",
  summary: "(being built)",
  examples: ["guard engine"],
  async action() {
    throw new GuardError("guard engine is not built yet");
  },
};
