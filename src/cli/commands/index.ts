import type { CommandSpec } from "../command.ts";
import { agentEvent } from "./agent-event.ts";
import { check } from "./check.ts";
import { config } from "./config.ts";
import { coveringTests } from "./covering-tests.ts";
import { demo } from "./demo.ts";
import { doctor } from "./doctor.ts";
import { engine } from "./engine.ts";
import { evidence } from "./evidence.ts";
import { explain } from "./explain.ts";
import { feedback } from "./feedback.ts";
import { index } from "./graph-index.ts";
import { hook } from "./hook.ts";
import { init } from "./init.ts";
import { leak } from "./leak.ts";
import { parse } from "./parse.ts";
import { post } from "./post.ts";
import { pre } from "./pre.ts";
import { precommit } from "./precommit.ts";
import { rm } from "./rm.ts";
import { run } from "./run.ts";
import { shell } from "./shell.ts";
import { snapshot } from "./snapshot.ts";
import { stats } from "./stats.ts";
import { trash } from "./trash.ts";
import { why } from "./why.ts";

/** Every command guard has. Add one line per command; keep this list sorted. */
export const COMMANDS: CommandSpec[] = [agentEvent, check, config, coveringTests, demo, doctor, engine, evidence, explain, feedback, hook, index, init, leak, parse, post, pre, precommit, rm, run, shell, snapshot, stats, trash, why];
