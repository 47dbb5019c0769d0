"""pytest plugin guard loads with `-p guard_evidence` to record per-test evidence.

Line contexts (guard_evidence_lines.py: sys.monitoring on Python 3.12+, coverage.py before): "" while
modules are imported (collection), then each test's node id for its setup, call and teardown phases (so the
phases are unioned). One JSON file per process, so xdist
workers write theirs and guard merges them.

GUARD_SHARD=k/N: this process is one of N that guard started; it keeps its share of the collected items
(guard_evidence_shard.py, weighed by the tests' previous durations in GUARD_DURATIONS when guard has them) and first writes every collected node id to `collected-<pid>.json`, so guard
knows what a shard that dies was to run. GUARD_ONLY names a JSON list of node ids relative to the repository
root: run only those (guard's run again of what failed in a shard). Under xdist neither applies: xdist already runs the suite in parallel.
"""
import json
import os
import sys

_ROOT = os.path.realpath(os.environ.get("GUARD_EVIDENCE_ROOT", os.getcwd()))
_OUT = os.environ.get("GUARD_EVIDENCE_OUT", "")
_SKIP_DIRS = tuple(
    os.path.join(_ROOT, d) + os.sep
    for d in (".venv", "venv", ".tox", ".nox", ".git", ".guard", "node_modules", "__pycache__", ".pytest_cache")
)
_SHARD = os.environ.get("GUARD_SHARD", "")
_ONLY = os.environ.get("GUARD_ONLY", "")
_DURATIONS = os.environ.get("GUARD_DURATIONS", "")
_current = [""]
_reads = {}
_reports = []
_collect_errors = []
_run = {"xdist": False}


def _inside(path):
    return path.startswith(_ROOT + os.sep) and not path.startswith(_SKIP_DIRS) and "site-packages" not in path


def _audit(event, args):
    if event != "open" or not args:
        return
    p = args[0]
    if isinstance(p, int):
        return
    try:
        p = os.fsdecode(p)
    except Exception:
        return
    if p.endswith((".py", ".pyc", ".so", ".pth")):
        return
    full = os.path.realpath(os.path.join(os.getcwd(), p)) if not os.path.isabs(p) else os.path.realpath(p)
    if _inside(full) and os.path.isfile(full):
        _reads.setdefault(_current[0], set()).add(os.path.relpath(full, _ROOT))


import pytest  # noqa: E402
from guard_evidence_lines import recorder  # noqa: E402

_lines = recorder(
    _ROOT,
    [d + "*" for d in _SKIP_DIRS] + ["*/site-packages/*"],
    lambda real: _inside(real) and os.path.isfile(real),
)
_lines.start()
sys.addaudithook(_audit)


# A fixture of class, module, package or session scope runs once, in the setup of the first test that
# asks for it, and every later test uses what it built. Its setup is recorded under a context of its
# own and counted for every test that uses it, not only the first.
_FIXTURE_CONTEXT = "<guard fixture> "
_fixtures_of = {}


def _fixture_key(fixturedef):
    return "%s%s::%s" % (_FIXTURE_CONTEXT, getattr(fixturedef, "baseid", ""), fixturedef.argname)


def _shared_fixtures(item):
    """The keys of the non-function-scoped fixtures the test uses (its fixture closure)."""
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", None) or {}
    keys = []
    for name in getattr(item, "fixturenames", ()):
        fds = defs.get(name)
        if fds and getattr(fds[-1], "scope", "function") != "function":
            keys.append(_fixture_key(fds[-1]))
    return keys


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _current[0] = item.nodeid
    _lines.switch(item.nodeid)
    shared = _shared_fixtures(item)
    if shared:
        _fixtures_of[item.nodeid] = shared


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    if getattr(fixturedef, "scope", "function") == "function":
        yield
        return
    outer = _current[0]
    _current[0] = _fixture_key(fixturedef)
    _lines.switch(_current[0])
    try:
        yield
    finally:
        _current[0] = outer
        _lines.switch(outer)


def _fold_fixtures(by_context, reads):
    """Count each shared fixture's setup for every test that uses it; drop the fixtures' own contexts."""
    for test, keys in _fixtures_of.items():
        for key in keys:
            for rel, lines in by_context.get(key, {}).items():
                mine = by_context.setdefault(test, {})
                mine[rel] = sorted(set(mine.get(rel, ())) | set(lines))
            for rel in reads.get(key, ()):
                reads.setdefault(test, set()).add(rel)
    for ctx in [c for c in by_context if c.startswith(_FIXTURE_CONTEXT)]:
        del by_context[ctx]
    for ctx in [c for c in reads if c.startswith(_FIXTURE_CONTEXT)]:
        del reads[ctx]


def pytest_runtest_logreport(report):
    if hasattr(report, "node"):  # an xdist controller hearing a worker's report; the worker records it
        return
    _reports.append(
        {"id": report.nodeid, "when": report.when, "outcome": report.outcome, "duration": report.duration}
    )


def _under_xdist(config):
    """xdist's controller (-n, --tx) or one of its workers."""
    option = config.option
    return bool(getattr(option, "numprocesses", None) or getattr(option, "tx", None)) or hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    if not _SHARD or not _under_xdist(session.config) or hasattr(session.config, "workerinput"):
        return
    # The project runs xdist itself: the first of guard's processes runs the suite that way, the others stop.
    _run["xdist"] = True
    if not _SHARD.startswith("1/"):
        pytest.exit("guard: xdist runs this suite in guard's first process", returncode=5)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    if _under_xdist(config):
        return
    if _ONLY:
        with open(_ONLY) as f:
            wanted = set(json.load(f))
        rootdir = _rootdir(config)
        items[:] = [item for item in items if _under(rootdir, item.nodeid) in wanted]
        return
    if not _SHARD:
        return
    from guard_evidence_shard import item_weights, parse, partition

    shard = parse(_SHARD)
    if shard is None:
        return
    mine, count = shard
    nodeids = [item.nodeid for item in items]
    rootdir = _rootdir(config)
    _write("collected-%d.json" % os.getpid(), {"rootdir": rootdir, "collected": nodeids})
    durations = {}
    if _DURATIONS:
        with open(_DURATIONS) as f:
            durations = json.load(f)
    shard_of = partition(nodeids, count, item_weights([_under(rootdir, n) for n in nodeids], durations))
    # Not reported through pytest_deselected: the other shards run these, nothing was left out.
    items[:] = [item for item, s in zip(items, shard_of) if s == mine]


def _rootdir(config):
    return os.path.relpath(os.path.realpath(str(config.rootpath)), _ROOT).replace(os.sep, "/")


def _under(rootdir, nodeid):
    """A node id relative to the repository root, as guard names it (ids.ts underRoot)."""
    return nodeid if rootdir in ("", ".") else rootdir + "/" + nodeid


def _write(name, value):
    if not _OUT:
        return
    os.makedirs(_OUT, exist_ok=True)
    with open(os.path.join(_OUT, name), "w") as f:
        json.dump(value, f)


def pytest_collectreport(report):
    # A module that fails to import or collect: its tests have no evidence, and guard must say so.
    if report.failed and report.nodeid:
        _collect_errors.append(report.nodeid)


# Where a layout puts a top-level package or module of the project: the root and src/.
_NOT_PACKAGES = ("conftest", "setup", "noxfile", "fabfile", "tasks", "manage")


def _checkout_packages():
    out = {}
    for base in (_ROOT, os.path.join(_ROOT, "src")):
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for n in names:
            path = os.path.join(base, n)
            if n.isidentifier() and os.path.isfile(os.path.join(path, "__init__.py")):
                out.setdefault(n, path)
            elif n.endswith(".py") and n[:-3].isidentifier() and n[:-3] not in _NOT_PACKAGES and os.path.isfile(path):
                out.setdefault(n[:-3], path)
    return out


def _checkout_source(real):
    """A file of the checkout's own sources (not an old build inside it): a package that puts another of the
    project's packages in its place in sys.modules (toolz's tlz) still runs the checkout."""
    return _inside(real) and not real.startswith(os.path.join(_ROOT, "build") + os.sep)


def _installed_copies():
    """The project's own packages the tests imported from somewhere else (an installed copy): name, where, the checkout's."""
    found = []
    for name, path in sorted(_checkout_packages().items()):
        f = getattr(sys.modules.get(name), "__file__", None)
        if not f:
            continue
        real = os.path.realpath(f)
        mine = os.path.realpath(path)
        imported = os.path.dirname(real) if os.path.basename(real).startswith("__init__.") else real
        if imported != mine and not _checkout_source(real):
            found.append({"name": name, "imported": imported, "checkout": os.path.relpath(path, _ROOT)})
    return found


def _safe_installed_copies():
    # A check that cannot look (an odd module object, an unreadable folder) must not cost the evidence.
    try:
        return _installed_copies()
    except Exception:
        return []


def pytest_sessionfinish(session, exitstatus):
    _lines.stop()
    if not _OUT:
        return
    coverage_by_context = {}
    for ctx, files in _lines.by_context().items():
        for real, lines in files.items():
            if _inside(real):
                coverage_by_context.setdefault(ctx, {})[os.path.relpath(real, _ROOT)] = sorted(lines)
    _fold_fixtures(coverage_by_context, _reads)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    out = {
        "rootdir": _rootdir(session.config),
        "xdist": _run["xdist"],
        "core": _lines.core,
        "worker": worker,
        "coverage": coverage_by_context,
        "reports": _reports,
        "reads": {k: sorted(v) for k, v in _reads.items()},
        "collect_errors": _collect_errors,
        "installed_copies": _safe_installed_copies(),
    }
    _write("evidence-%s-%d.json" % (worker, os.getpid()), out)
