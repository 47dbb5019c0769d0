// Child process for the concurrency test: appends N events tagged with its writer number.
import { appendEvent } from "../../src/state/events.ts";

const [root, writer, count] = process.argv.slice(2);
for (let seq = 0; seq < Number(count); seq++) {
  appendEvent(root!, { type: "test.concurrent", writer: Number(writer), seq, pad: "x".repeat(200 + (seq % 50)) });
}
