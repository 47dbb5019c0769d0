// Go test binaries are built with coverage once per recording and kept between recordings: a module
// whose path ends in a major version builds all its packages in one `go test -c`, and a recording after
// an edit runs the edited code, never a binary left from before it.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordGo, testBinaryName } from "../../src/graph/evidence/go/record.ts";

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-gobin-${name}-`)), "repo");

const MODULE: Record<string, string> = {
  "go.mod": "module example.com/fx/v2\n\ngo 1.21\n",
  "fx.go": `package fx

func Sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}
`,
  "fx_test.go": `package fx

import "testing"

func TestSign(t *testing.T) {
	if Sign(3) != 1 {
		t.Fatal("sign")
	}
}
`,
  "sub/sub.go": `package sub

import "example.com/fx/v2"

func Twice(n int) int { return 2 * fx.Sign(n) }
`,
  "sub/sub_test.go": `package sub

import "testing"

func TestTwice(t *testing.T) {
	if Twice(-4) != -2 {
		t.Fatal("twice")
	}
}
`,
};

describe("go test binaries", () => {
  test("named as the go command names them: the last element, or the one before a major version", () => {
    expect(testBinaryName("example.com/fx/v2")).toBe("fx.test");
    expect(testBinaryName("github.com/cespare/xxhash/v2")).toBe("xxhash.test");
    expect(testBinaryName("example.com/fx/v12")).toBe("fx.test");
    expect(testBinaryName("example.com/fx/v1")).toBe("v1.test");
    expect(testBinaryName("example.com/fx/v0")).toBe("v0.test");
    expect(testBinaryName("example.com/fx/sub")).toBe("sub.test");
    expect(testBinaryName("v2")).toBe("v2.test");
  });

  test("a /v2 module: both packages built at once, kept, and rebuilt after an edit", async () => {
    const dir = tmp("v2");
    buildRepo(dir, MODULE);
    const first = await recordGo({ root: dir });
    expect(first.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["fx_test.go::TestSign", "passed"],
      ["sub/sub_test.go::TestTwice", "passed"],
    ]);
    // TestSign(3) never takes the n < 0 branch; TestTwice(-4) does, across packages (-coverpkg).
    expect(first.coverage["fx_test.go::TestSign"]!["fx.go"]).toEqual([3, 4, 7]);
    expect(first.coverage["sub/sub_test.go::TestTwice"]!["fx.go"]).toEqual([3, 4, 5, 6]);
    const all = join(dir, ".guard", "go-test-binaries", "root", "all");
    expect(existsSync(join(all, "fx.test")) && existsSync(join(all, "sub.test"))).toBe(true);

    const again = await recordGo({ root: dir });
    expect(again.coverage).toEqual(first.coverage);

    // The edit moves the branch: a kept binary would still report the old lines.
    writeFileSync(join(dir, "fx.go"), MODULE["fx.go"]!.replace("\tif n < 0 {", "\t// negative numbers first\n\tif n < 0 {"));
    const edited = await recordGo({ root: dir });
    expect(edited.coverage["fx_test.go::TestSign"]!["fx.go"]).toEqual([3, 4, 5, 8]);
    expect(edited.coverage["sub/sub_test.go::TestTwice"]!["fx.go"]).toEqual([3, 4, 5, 6, 7]);
  }, 120_000);
});
