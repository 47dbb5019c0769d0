/** A small reader for the JUnit XML pytest writes: testcases with their failure messages. */
export interface JunitCase {
  classname: string;
  name: string;
  file?: string;
  time: number;
  outcome: "passed" | "failed" | "skipped";
  message?: string;
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]!) : undefined;
};

export function unescapeXml(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n))).replace(/&amp;/g, "&");
}

export function parseJunit(xml: string): JunitCase[] {
  const out: JunitCase[] = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const tag = m[1]!;
    const body = m[3] ?? "";
    let outcome: JunitCase["outcome"] = "passed";
    let message: string | undefined;
    const fail = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (fail) {
      outcome = "failed";
      message = attr(fail[2]!, "message") ?? unescapeXml(fail[3] ?? "").trim().split("\n")[0];
      const text = unescapeXml(fail[3] ?? "");
      const firstAssert = text.split("\n").find((l) => /^E\s+/.test(l));
      if (firstAssert) message = firstAssert.replace(/^E\s+/, "").trim();
    } else if (/<skipped\b/.test(body)) outcome = "skipped";
    out.push({ classname: attr(tag, "classname") ?? "", name: attr(tag, "name") ?? "", file: attr(tag, "file"), time: Number(attr(tag, "time") ?? 0), outcome, message });
  }
  return out;
}
