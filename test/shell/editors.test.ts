import { expect, test } from "bun:test";
import { readAwk, readPerl, readSed } from "../../src/decide/shell/programs/editors.ts";

// Which words the in-place editors rewrite, read the way each program reads its own options.
const words = (line: string) => line.split(" ").map((value) => ({ value: value === "''" ? "" : value }));
const files = (read: typeof readSed, line: string) => {
  const r = read(words(line));
  return r.inPlace ? (r.scriptGiven ? r.operands : r.operands.slice(1)).map((a) => a.value) : null;
};

test("sed: -i with or without a suffix, bundled or long; BSD's -i '' ; no -i writes nothing", () => {
  expect(files(readSed, "-i s/a/b/ one two")).toEqual(["one", "two"]);
  expect(files(readSed, "-i.bak s/a/b/ one")).toEqual(["one"]);
  expect(files(readSed, "-in s/a/b/ one")).toEqual(["one"]); // GNU: -i with the suffix "n"
  expect(files(readSed, "-ni s/a/b/p one")).toEqual(["one"]); // -n, then -i
  expect(files(readSed, "-i '' -e s/a/b/ one")).toEqual(["one"]);
  expect(files(readSed, "--in-place=.orig --expression=s/a/b/ one")).toEqual(["one"]);
  expect(files(readSed, "-E -i -f script.sed one")).toEqual(["one"]);
  expect(files(readSed, "-n s/a/b/p one")).toBeNull();
  expect(files(readSed, "s/-i/x/ one")).toBeNull();
});

test("perl: -i anywhere in a cluster; -pie takes e as the suffix, so the next word is the script", () => {
  expect(files(readPerl, "-pi -e s/a/b/ one two")).toEqual(["one", "two"]);
  expect(files(readPerl, "-i.bak -pe s/a/b/ one")).toEqual(["one"]);
  expect(files(readPerl, "-pie s/a/b/ one")).toEqual(["one"]);
  expect(files(readPerl, "-0777 -pi -e s/a/b/ one")).toEqual(["one"]);
  expect(files(readPerl, "script.pl -i one")).toBeNull(); // -i after the script is the script's argument
  expect(files(readPerl, "-pe s/a/b/ one")).toBeNull();
});

test("gawk: -i inplace loads the extension; assignments are not files", () => {
  expect(files(readAwk, "-i inplace {print} one two")).toEqual(["one", "two"]);
  expect(files(readAwk, "--include=inplace -v x=1 {print} n=2 one")).toEqual(["one"]);
  expect(files(readAwk, "-i inplace -f prog.awk one")).toEqual(["one"]);
  expect(files(readAwk, "-i other {print} one")).toBeNull();
  expect(files(readAwk, "{print} one")).toBeNull();
});
