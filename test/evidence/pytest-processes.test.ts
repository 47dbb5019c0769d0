// A whole pytest recording runs in as many processes as there are cores, each collecting as pytest always
// does and keeping its share (classes together, modules of functions together unless one is larger than a
// share). The evidence is the one a single process gives; tests that fail beside each other run again alone.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordPytest } from "../../src/graph/evidence/python/record.ts";
import type { Evidence } from "../../src/graph/evidence/types.ts";

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-pyproc-${name}-`)), "repo");

// Each test notes the process it ran in, so the test can tell how the suite was shared out.
const CONFTEST = `import os

import pytest


@pytest.fixture(autouse=True)
def _note_process():
    with open(os.environ["PIDS_FILE"], "a") as f:
        f.write("%d\\n" % os.getpid())
    yield
`;

const SUITE: Record<string, string> = {
  "pytest.ini": "[pytest]\ntestpaths = tests\n",
  "shop/__init__.py": "",
  "shop/registry.py": `HANDLERS = {}


def handler(name):
    def wrap(fn):
        HANDLERS[name] = fn
        return fn

    return wrap
`,
  "shop/prices.py": `from shop.registry import handler

RATE = 0.2


@handler("net")
def net(cents):
    return cents


@handler("gross")
def gross(cents):
    if cents < 0:
        raise ValueError("negative")
    return round(cents * (1 + RATE))


def discount(cents, pct):
    return cents - cents * pct // 100
`,
  "shop/cart.py": `from shop.prices import gross


class Cart:
    def __init__(self):
        self.items = []

    def add(self, cents):
        self.items.append(cents)

    def total(self):
        return sum(gross(c) for c in self.items)
`,
  "tests/__init__.py": "",
  "tests/conftest.py": CONFTEST,
  "tests/test_cart.py": `import unittest

import pytest

from shop.cart import Cart


@pytest.fixture(scope="module")
def full_cart():
    cart = Cart()
    cart.add(100)
    return cart


class TestCart(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(Cart().total(), 0)

    def test_one(self):
        c = Cart()
        c.add(10)
        self.assertEqual(c.total(), 12)


def test_full(full_cart):
    assert full_cart.total() == 120
`,
  "tests/test_prices.py": `import pytest

from shop.prices import discount, gross, net
from shop.registry import HANDLERS


@pytest.mark.parametrize("cents,want", [(0, 0), (10, 12), (100, 120)])
def test_gross(cents, want):
    assert gross(cents) == want


def test_net():
    assert net(5) == 5


def test_discount():
    assert discount(100, 10) == 90


def test_registered():
    assert sorted(HANDLERS) == ["gross", "net"]
`,
};

const pids = (file: string) => new Set(readFileSync(file, "utf8").trim().split("\n"));
const summary = (ev: Evidence) => ({
  tests: ev.tests.map((t) => `${t.id} ${t.outcome}`),
  coverage: ev.coverage,
  filesRead: ev.filesRead,
  moduleLevel: ev.moduleLevel,
});

test("two processes share the suite out and give the evidence one process gives", async () => {
  const dir = tmp("same");
  buildRepo(dir, SUITE);
  const onePids = join(dir, "..", "one.pids");
  const twoPids = join(dir, "..", "two.pids");
  process.env.PIDS_FILE = onePids;
  const one = await recordPytest({ root: dir, processes: 1 });
  process.env.PIDS_FILE = twoPids;
  const two = await recordPytest({ root: dir, processes: 2 });
  delete process.env.PIDS_FILE;

  expect(pids(onePids).size).toBe(1);
  expect(pids(twoPids).size).toBe(2);
  expect(two.notes).toContain("pytest: 2 processes side by side");
  expect(one.tests.length).toBe(7);
  expect(one.tests.every((t) => t.outcome === "passed")).toBe(true);
  expect(summary(two)).toEqual(summary(one));
}, 120_000);

test("two tests that fail when they run at the same time end passed, with their own evidence", async () => {
  const dir = tmp("crowded");
  // Both take the same exclusive lock file for a second: side by side, one of them fails.
  const locking = (name: string) => `import os
import time

from shop.prices import ${name}


def test_${name}_locked():
    fd = os.open("build.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    try:
        time.sleep(1.0)
        assert ${name}(10) >= 10
    finally:
        os.close(fd)
        os.remove("build.lock")
`;
  buildRepo(dir, { ...SUITE, "tests/test_lock_a.py": locking("gross"), "tests/test_lock_b.py": locking("net") }, ["build.lock"]);
  process.env.PIDS_FILE = join(dir, "..", "crowded.pids");
  const ev = await recordPytest({ root: dir, processes: 2 });
  delete process.env.PIDS_FILE;

  const outcome = (id: string) => ev.tests.find((t) => t.id === id)?.outcome;
  expect(outcome("tests/test_lock_a.py::test_gross_locked")).toBe("passed");
  expect(outcome("tests/test_lock_b.py::test_net_locked")).toBe("passed");
  expect(ev.notes.some((n) => /ran again in one process/.test(n))).toBe(true);
  expect(Object.keys(ev.coverage["tests/test_lock_a.py::test_gross_locked"] ?? {})).toContain("shop/prices.py");
  // Each test once: the run alone replaced what the crowded run said of it.
  expect(ev.tests.filter((t) => t.id.includes("_locked")).length).toBe(2);
}, 120_000);

test("a module that fails to collect keeps the other modules' evidence in every process", async () => {
  const dir = tmp("collect");
  buildRepo(dir, { ...SUITE, "tests/test_broken.py": "import shop.missing_module\n\n\ndef test_never():\n    pass\n" });
  process.env.PIDS_FILE = join(dir, "..", "collect.pids");
  const ev = await recordPytest({ root: dir, processes: 2 });
  delete process.env.PIDS_FILE;
  expect(ev.uncollected).toEqual(["tests/test_broken.py"]);
  expect(ev.tests.length).toBe(7);
  expect(ev.tests.every((t) => t.outcome === "passed")).toBe(true);
}, 120_000);
