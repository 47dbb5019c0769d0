import type { CommandSpec } from "../command.ts";
import { GuardError } from "../errors.ts";

export const doctor: CommandSpec = {
  name: "doctor",
  summary: "(being built)",
  examples: ["guard doctor"],
  async action() {
    throw new GuardError("guard doctor is not built yet");
  },
};
