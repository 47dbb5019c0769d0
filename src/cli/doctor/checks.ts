import type { DoctorCheck } from "./check.ts";
import { engineData, engineServers } from "./engine-data-checks.ts";
import { engineLog, engineReachable, graphPresent } from "./engine-checks.ts";
import { evidencePresent } from "./evidence-check.ts";
import { sharedTree } from "./gate-checks.ts";
import { hostIntegrations, stateExcluded } from "./state-checks.ts";

/** Every doctor check, in the order they are shown. Add one import and one entry per check. */
export const DOCTOR_CHECKS: DoctorCheck[] = [engineServers, engineData, engineReachable, engineLog, graphPresent, stateExcluded, hostIntegrations, evidencePresent, sharedTree];
