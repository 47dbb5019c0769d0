export { CHANNELS, channelById } from "./channels.ts";
export { checkLeak, findLeaks, redactForLog, LEAK_RULES, MAX_SCAN_BYTES } from "./scan.ts";
export type * from "./types.ts";
