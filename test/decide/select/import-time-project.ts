import type { FixtureProject } from "../../../fixtures/select/project.ts";

/**
 * A pytest project whose functions run at import time, outside every test: a decorator applied in
 * another module (`@logged`), a registry filled from module level (`formats.register(...)`), and a base
 * class's `__init_subclass__` run by a subclass defined in another module. In each case one test calls
 * the function directly and another depends on what its import-time run did without ever calling it.
 */
export const importTime: FixtureProject = {
  name: "import-time",
  framework: "pytest",
  files: {
    "conftest.py": "# Puts the repository root on sys.path so tests import `app`.\n",
    "app/__init__.py": "",
    "app/deco.py": `def logged(fn):
    calls = []

    def wrapper(*args):
        calls.append(args)
        return fn(*args)

    wrapper.calls = calls
    return wrapper
`,
    "app/svc.py": `from .deco import logged


@logged
def double(x):
    return 2 * x
`,
    "app/registry.py": `class Registry:
    def __init__(self):
        self.handlers = {}

    def register(self, name, fn):
        self.handlers[name] = fn

    def render(self, name, value):
        return self.handlers[name](value)
`,
    "app/formats.py": `from .registry import Registry


def upper(value):
    return value.upper()


formats = Registry()
formats.register("upper", upper)
`,
    "app/plugins.py": `class Plugin:
    registry = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.key = cls.__name__.lower()
        Plugin.registry[cls.key] = cls


def describe(plugin):
    return f"plugin {plugin.key}"
`,
    "app/builtin.py": `from .plugins import Plugin


class Csv(Plugin):
    def render(self, rows):
        return "\\n".join(",".join(r) for r in rows)
`,
    "app/users.py": `def normalize(name):
    return name.strip().lower()
`,
    "tests/test_deco.py": `from app.deco import logged


def test_logged_records_calls():
    f = logged(lambda x: x + 1)
    assert f(1) == 2
    assert f.calls == [(1,)]
`,
    "tests/test_svc.py": `from app.svc import double


def test_double_is_logged():
    assert double(3) == 6
    assert (3,) in double.calls
`,
    "tests/test_registry.py": `from app.registry import Registry


def test_register():
    r = Registry()
    r.register("id", str)
    assert r.handlers == {"id": str}
`,
    "tests/test_formats.py": `from app.formats import formats


def test_render_upper():
    assert formats.render("upper", "ab") == "AB"
`,
    "tests/test_plugins.py": `from app.plugins import Plugin, describe


def test_subclass_gets_key():
    class Local(Plugin):
        pass

    assert Local.key == "local"
    assert describe(Local) == "plugin local"
`,
    "tests/test_builtin.py": `from app.builtin import Csv


def test_csv_is_registered():
    assert Csv.key == "csv"
    assert Csv().render([["a", "b"]]) == "a,b"
`,
    "tests/test_users.py": `from app.users import normalize


def test_normalize():
    assert normalize(" Ann ") == "ann"
`,
  },
  scenarios: [
    {
      name: "decorator-body",
      summary: "a decorator applied at import in another module changes",
      write: { "app/deco.py": (s) => s.replace("wrapper.calls = calls", "wrapper.calls = list(calls)") },
    },
    {
      name: "registry-register",
      summary: "a method a module calls at import to fill a registry changes",
      write: { "app/registry.py": (s) => s.replace("self.handlers[name] = fn", "self.handlers[name.title()] = fn") },
    },
    {
      name: "init-subclass",
      summary: "a base class's __init_subclass__ changes",
      write: { "app/plugins.py": (s) => s.replace("cls.key = cls.__name__.lower()", "cls.key = cls.__name__") },
    },
    {
      name: "plain-function",
      summary: "a function that never runs at import changes (no widening)",
      write: { "app/users.py": (s) => s.replace(".lower()", ".casefold()") },
    },
  ],
};
