"""The package's imports point one way (docs/architecture.md): no cycles, no layer importing a higher one.

Every import counts, also those made inside functions. The one exception is the lazy import of
``render`` by a core type's ``_repr_svg_`` (so Jupyter can show positions and solutions).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rummisolve"
STATIC = PACKAGE / "server" / "static"
MAX_SCRIPT_LINES = 400
"""The web app's scripts are ES modules by concern, none longer than this (issue 34)."""

LAYERS = {
    "core": ("errors", "tiles", "rules", "rule_facts", "twist_melds", "melds", "position", "solution"),
    "referee": ("referee",),
    "codec": ("jsonio", "json_documents", "solver_limits", "position_problems"),
    "engines": ("solver", "render", "game", "batch", "explain", "hints", "xpress", "kinds"),
    "service": ("service",),
    "apps": ("cli", "commands", "server", "__main__"),
}
ORDER = list(LAYERS)
ALLOWED_UPWARDS = {("rummisolve.position", "rummisolve.render"), ("rummisolve.solution", "rummisolve.render")}
"""Lazy ``_repr_svg_`` imports: a core type drawing itself."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str) -> set[str]:
    """The rummisolve modules ``name`` imports (``from package import submodule``: both)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    is_package = MODULES[name].name == "__init__.py"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # a submodule, if it is one
    return {_owner(target) for target in found if target == "rummisolve" or target.startswith("rummisolve.")}


def _owner(target: str) -> str:
    """The module an import executes: the named one, or the nearest package above it we have."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


GRAPH = {name: _imports(name) - {name} for name in MODULES}


def _layer(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) == 1:
        return None  # the facade, rummisolve/__init__.py: it may gather every layer below the apps
    for index, tops in enumerate(LAYERS.values()):
        if parts[1] in tops:
            return index
    raise AssertionError(f"{name} is in no layer of docs/architecture.md: add it to LAYERS")


def test_every_module_is_in_a_layer():
    for name in MODULES:
        _layer(name)


def test_no_import_points_to_a_higher_layer():
    wrong = []
    for name, targets in GRAPH.items():
        here = _layer(name)
        for target in targets:
            there = _layer(target)
            if there is None:  # the facade: only the apps may use it
                if here is not None and ORDER[here] != "apps":
                    wrong.append(f"{name} imports the facade rummisolve (import from the module itself)")
                continue
            if here is not None and there > here and (name, target) not in ALLOWED_UPWARDS:
                wrong.append(f"{name} ({ORDER[here]}) imports {target} ({ORDER[there]})")
    assert not wrong, "\n".join(wrong)


def test_game_and_xpress_import_one_way():
    # Xpress builds on the tile game's pieces; the tile game never imports the dice edition, and
    # only the registry of game kinds (rummisolve.kinds) knows every kind.
    wrong = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name.startswith("rummisolve.game")
        for target in targets
        if target.startswith("rummisolve.xpress") or target == "rummisolve.kinds"
    ]
    assert not wrong, "\n".join(wrong)


def test_no_app_asks_which_kind_a_game_is():
    # The apps find a game kind in the registry and use what it owns; none branches on the dice
    # flag that marks Xpress's rule sets (rules.dice), nor names the dice edition's engine.
    apps = [path for name, path in MODULES.items() if _layer(name) is not None and ORDER[_layer(name)] == "apps"]
    flag = re.compile(r"\brules\.dice\b|\.rules\.dice\b|isinstance\([^)]*DiceSession")
    wrong = [
        f"{p.relative_to(PACKAGE)}:{n}"
        for p in apps
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if flag.search(line)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    graph = {name: {t for t in targets if (name, t) not in ALLOWED_UPWARDS} for name, targets in GRAPH.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target) :] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_the_referee_never_imports_the_solver():
    referee = [name for name in GRAPH if name.startswith("rummisolve.referee")]
    assert referee
    for name in referee:
        assert not any(t.startswith("rummisolve.solver") for t in GRAPH[name]), name


def test_only_the_solver_imports_ortools():
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uses = any(
            (isinstance(node, ast.Import) and any(a.name.startswith("ortools") for a in node.names))
            or (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ortools"))
            for node in ast.walk(tree)
        )
        if uses:
            assert name.startswith("rummisolve.solver"), f"{name} imports OR-Tools"


def test_the_check_finds_a_cycle_and_an_upward_import(tmp_path, monkeypatch):
    # The checks above must be able to fail: a planted cycle and an upward import are caught.
    monkeypatch.setitem(GRAPH, "rummisolve.tiles", GRAPH["rummisolve.tiles"] | {"rummisolve.position"})
    with pytest.raises(pytest.fail.Exception, match="import cycle"):
        test_no_import_cycle()
    monkeypatch.setitem(GRAPH, "rummisolve.melds", GRAPH["rummisolve.melds"] | {"rummisolve.jsonio"})
    with pytest.raises(AssertionError, match="rummisolve.melds"):
        test_no_import_points_to_a_higher_layer()


# -- size and privacy (issue 34) ---------------------------------------------------------------

MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def _too_long() -> set[str]:
    found = set()
    for path in MODULES.values():
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            found.add(_relative(path))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    found.add(f"{_relative(path)}:{node.name}")
    return found


def _private_imports() -> set[tuple[str, str]]:
    """``(module path, name)`` for each ``from module import _name`` of another module's private
    name (a private module, ``from package import _module``, is an internal module: allowed)."""
    found = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("rummisolve")):
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    module = f"{node.module}.{alias.name}" if node.module else alias.name
                    if private and module not in MODULES:
                        found.add((_relative(path), alias.name))
    return found


def test_no_function_or_module_past_its_size():
    found = sorted(_too_long())
    assert not found, f"over {MAX_FUNCTION_LINES} lines (a function) or {MAX_MODULE_LINES} (a module): {found}"


def test_no_private_name_imported_from_another_module():
    found = sorted(_private_imports())
    assert not found, f"private names imported from another module (make them public there, or move them): {found}"


def test_no_web_script_is_over_400_lines():
    scripts = sorted(STATIC.glob("*.js"))
    assert scripts
    long = [
        f"{p.name}: {n} lines"
        for p in scripts
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_SCRIPT_LINES
    ]
    assert not long, f"split these scripts (at most {MAX_SCRIPT_LINES} lines each): " + ", ".join(long)


def test_no_web_script_defines_again_what_common_js_exports():
    declared = r"(?:^|\n)\s*(?:export\s+)?(?:async\s+)?(?:function\s+|(?:const|let|var|class)\s+)([\w$]+)"
    shared = set(
        re.findall(r"export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)", (STATIC / "common.js").read_text())
    )
    assert {"el", "api", "tileParts", "$"} <= shared
    again = []
    for path in sorted(STATIC.glob("*.js")):
        if path.name != "common.js":
            again += [
                f"{path.name}: {name}"
                for name in re.findall(declared, path.read_text(encoding="utf-8"))
                if name in shared
            ]
    assert not again, "import these from common.js instead: " + ", ".join(again)


def _module_map() -> set[str]:
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Module map", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([\w/]+\.py)`", section))


def test_every_module_is_in_the_module_map():
    named = _module_map()
    modules = {path.relative_to(PACKAGE).as_posix() for path in MODULES.values()}
    assert not modules - named, f"add to docs/architecture.md's module map: {sorted(modules - named)}"
    assert not named - modules, f"no such module, take off the module map: {sorted(named - modules)}"
