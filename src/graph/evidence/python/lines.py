"""Which lines of the project ran under which context (guard_evidence.py switches contexts per test).

Two recorders with one interface: start(), switch(context), stop(), by_context() -> {context: {path: lines}},
core (a name for the notes).

- MonitoringLines (Python 3.12+, sys.monitoring): line events are enabled only on the project's own code
  objects; each line reports once and is then switched off, and every context switch switches them all on
  again, so a test pays one callback per distinct line it runs, not one per line executed. A line event
  costs CPython time in proportion to its code object's size (30 us each in idna's 5,860-line table
  module, 0.18 s for its import): a code object of more than LARGE_CODE_LINES lines instead credits all of
  its lines when it starts or resumes, more lines than ran, never fewer.
- CoverageLines (older Pythons): coverage.py's C tracer with dynamic contexts.

GUARD_EVIDENCE_TRACER=coverage chooses coverage.py on any Python (to compare the two).
"""
import os
import sys


LARGE_CODE_LINES = 1000


class MonitoringLines:
    core = "sys.monitoring"

    def __init__(self, tool, wanted):
        self._mon = sys.monitoring
        self._tool = tool
        self._wanted = wanted  # absolute path -> recorded or not
        self._paths = {}  # co_filename -> real path, or "" when not recorded
        # Keyed by id(), holding (the code object, kept alive; its lines when it is credited whole, else
        # None): code objects compare equal by content (two modules built from one source file, as an alias
        # package does), and each needs its own events.
        self._known = {}
        self._data = {}
        self._current = self._data.setdefault("", {})

    def _path(self, filename):
        p = self._paths.get(filename)
        if p is None:
            real = os.path.realpath(filename)
            p = self._paths[filename] = real if self._wanted(real) else ""
        return p

    def _learn(self, code):
        whole = None
        if self._path(code.co_filename):
            lines = {line for _, _, line in code.co_lines() if line}
            if len(lines) > LARGE_CODE_LINES:
                whole = lines
                self._mon.set_local_events(self._tool, code, self._mon.events.PY_RESUME)
            else:
                self._mon.set_local_events(self._tool, code, self._mon.events.LINE)
        entry = self._known[id(code)] = (code, whole)
        return entry

    def _on_start(self, code, offset):
        entry = self._known.get(id(code))
        if entry is None or entry[0] is not code:
            entry = self._learn(code)
        if entry[1] is not None:
            lines = self._current.get(code.co_filename)
            if lines is None:
                lines = self._current[code.co_filename] = set()
            lines.update(entry[1])
        return self._mon.DISABLE

    def _on_line(self, code, line):
        lines = self._current.get(code.co_filename)
        if lines is None:
            lines = self._current[code.co_filename] = set()
        lines.add(line)
        return self._mon.DISABLE

    def start(self):
        mon = self._mon
        mon.use_tool_id(self._tool, "guard evidence")
        mon.register_callback(self._tool, mon.events.PY_START, self._on_start)
        mon.register_callback(self._tool, mon.events.PY_RESUME, self._on_start)
        mon.register_callback(self._tool, mon.events.LINE, self._on_line)
        mon.set_events(self._tool, mon.events.PY_START)

    def switch(self, context):
        self._current = self._data.setdefault(context, {})
        self._mon.restart_events()

    def stop(self):
        mon = self._mon
        mon.set_events(self._tool, 0)
        for code, _ in self._known.values():
            if self._paths.get(code.co_filename):
                mon.set_local_events(self._tool, code, 0)
        mon.register_callback(self._tool, mon.events.PY_START, None)
        mon.register_callback(self._tool, mon.events.PY_RESUME, None)
        mon.register_callback(self._tool, mon.events.LINE, None)
        mon.free_tool_id(self._tool)

    def by_context(self):
        out = {}
        for context, files in self._data.items():
            mine = {}
            for filename, lines in files.items():
                mine.setdefault(self._paths[filename], set()).update(lines)
            if mine:
                out[context] = mine
        return out


class CoverageLines:
    def __init__(self, root, omit):
        import coverage  # COVERAGE_CORE is read when the collector starts

        self._cov = coverage.Coverage(data_file=None, config_file=False, branch=False, source=[root], omit=omit)
        self.core = "unknown"

    def start(self):
        self._cov.start()
        for key, value in self._cov.sys_info():
            if key == "core":
                self.core = str(value)

    def switch(self, context):
        self._cov.switch_context(context)

    def stop(self):
        self._cov.stop()

    def by_context(self):
        data = self._cov.get_data()
        out = {}
        for path in data.measured_files():
            real = os.path.realpath(path)
            for line, contexts in data.contexts_by_lineno(path).items():
                for ctx in contexts:
                    out.setdefault(ctx, {}).setdefault(real, set()).add(line)
        return out


def _free_tool():
    # 0 debugger, 1 coverage, 2 profiler and 5 optimizer are the conventional ids; take one nobody uses.
    for tool in (4, 3, 2, 1, 0, 5):
        if sys.monitoring.get_tool(tool) is None:
            return tool
    return None


def recorder(root, omit, wanted):
    """sys.monitoring where the Python has it and an id is free, else coverage.py."""
    if os.environ.get("GUARD_EVIDENCE_TRACER") != "coverage" and hasattr(sys, "monitoring"):
        tool = _free_tool()
        if tool is not None:
            return MonitoringLines(tool, wanted)
    return CoverageLines(root, omit)
