import type { LanguageId } from "../grammars.ts";

/**
 * Small sources in each indexed language, parsed and extracted over and over when a worker starts so
 * its WebAssembly and JavaScript are compiled before the first real request (a fresh process runs
 * tree-sitter in JavaScriptCore's wasm interpreter first). Their content does not matter beyond using
 * the common node kinds: definitions, classes, calls, imports, strings, comments.
 */
const PY = `import os
from .util import helper as h, other
# a comment
@decorator
def top(a, b=1, *args, **kwargs):
    """Doc."""
    x = h(a) + other.call(b, key="v")
    for i in range(10):
        if i % 2 == 0 and x:
            x += len([j for j in args if j])
    return f(**kwargs)

class Thing(Base):
    def method(self, y):
        return self.other(y) or super().method(y)

    async def later(self):
        await self.method(1)

def test_top():
    assert top(1) == 2
`;

const TS = `import { a, b as c } from "./mod";
import * as ns from "../pkg/index";
// a comment
export interface Shape { x: number; y?: string }
export type Alias = Record<string, number[]>;
export function top(x: number, y = "s"): number {
  const f = (z: number) => z * 2;
  if (x > 1 && y.length) return f(a(x)) + ns.call(c, \`t\${x}\`);
  for (const k of [1, 2, 3]) x += k;
  return new Thing(x).method();
}
export class Thing<T> extends Base implements Shape {
  x = 1;
  constructor(private v: T) { super(); }
  method(): number { return this.helper(this.x) ?? 0; }
  private helper = (n: number): number => n + 1;
}
export default { name: "x", run() { return top(1); } };
describe("suite", () => {
  it("works", async () => { expect(await top(1)).toBe(2); });
});
`;

const JS = `const { a, b } = require("./mod");
import def from "./other.js";
// a comment
export function top(x, y = "s") {
  const f = (z) => z * 2;
  if (x > 1 && y.length) return f(a(x)) + def.call(b, \`t\${x}\`);
  return new Thing(x).method();
}
class Thing extends Base {
  constructor(v) { super(); this.v = v; }
  method() { return this.helper(this.v); }
}
module.exports.top = top;
test("works", () => { expect(top(1)).toBe(2); });
`;

const GO = `package sample

import (
	"fmt"
	str "strings"
)

// Thing is a type.
type Thing struct {
	Name string
	n    int
}

func (t *Thing) Method(x int) (int, error) {
	if x > 1 && t.n == 0 {
		return t.helper(x), nil
	}
	for i := 0; i < x; i++ {
		t.n += i
	}
	return fmt.Sprintf("%d", x) + str.ToUpper(t.Name), nil
}

func Top(a []int) map[string]int {
	m := map[string]int{"a": 1}
	go func() { _ = len(a) }()
	return m
}
`;

const RUST = `use std::collections::HashMap;
// a comment
pub struct Thing { name: String, n: i32 }
impl Thing {
    pub fn method(&self, x: i32) -> i32 {
        if x > 1 { self.helper(x) } else { other::call(x, "s") }
    }
    fn helper(&self, x: i32) -> i32 { let m: HashMap<String, i32> = HashMap::new(); m.len() as i32 + x }
}
pub fn top(v: Vec<i32>) -> i32 { v.iter().map(|x| x * 2).sum() }
`;

const JAVA = `package sample;
import java.util.List;
// a comment
public class Thing extends Base {
    private int n = 0;
    public int method(int x) {
        if (x > 1 && n == 0) { return helper(x) + List.of(1, 2).size(); }
        return other.call(x, "s");
    }
    private int helper(int x) { return x + n; }
}
`;

const BASH = `set -e
for f in "$DIR"/*.o build/$(date +%s); do rm -f "$f" && echo "\${f%.o}" >> removed.log; done
while read -r line; do [ -n "$line" ] || continue; done < list.txt
if [[ -d dist ]]; then cd dist || exit 1; fi
cat > out.txt <<'EOF'
text $HOME
EOF
X=$(git rev-parse HEAD) bash -c 'git log -1 "$1"' _ "$X" 2>/dev/null | tail -n 2
case "$1" in a|b) npm test ;; *) exit 2 ;; esac
`;

const SAMPLES: Partial<Record<LanguageId, string>> = { bash: BASH, python: PY, typescript: TS, tsx: TS, javascript: JS, go: GO, rust: RUST, java: JAVA };

/** The warm-up sample for `lang`, if guard has one. */
export const warmupSource = (lang: LanguageId): string | undefined => SAMPLES[lang];
