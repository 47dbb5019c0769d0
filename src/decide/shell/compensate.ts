import type { ShellContext, ShellVerdict } from "./types.ts";
import { classify } from "./classify.ts";

export async function guard(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  return classify(command, ctx);
}
