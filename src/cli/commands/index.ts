import type { CommandSpec } from "../command.ts";
import { doctor } from "./doctor.ts";
import { engine } from "./engine.ts";
import { evidence } from "./evidence.ts";
import { init } from "./init.ts";
import { parse } from "./parse.ts";

/** Every command guard has. Add one line per command; keep this list sorted. */
export const COMMANDS: CommandSpec[] = [doctor, engine, evidence, init, parse];
