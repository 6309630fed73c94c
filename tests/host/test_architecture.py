"""The architecture holds: layers point one way, docs/architecture.md names every module a
change may touch, the device code chains no exception, and the loop's pass stays simple (the
bound of 15 on every function of the project is ruff's, in make lint: tests/host/test_lint.py)."""

import ast
import os

import mccabe
import pytest

from host_tools import ROOT

DEVICE_SIDE = ("core", "hardware", "firmware")
BOUND = 15                    # ruff's max-complexity (pyproject.toml)


def _modules(*tops):
    """(path relative to the root, source) of every Python module under `tops`."""
    for top in tops:
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, ROOT).replace(os.sep, "/"), f.read()


def _imports(source):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


@pytest.mark.parametrize("layer, forbidden", [
    ("core", ("hardware", "firmware", "host_tools")),
    ("hardware", ("firmware", "host_tools")),
    ("firmware", ("host_tools",)),
])
def test_layers_point_one_way(layer, forbidden):
    # core <- hardware <- firmware <- host_tools: a driver never reaches up into the app (the
    # web board's factory is firmware/ports/web.py, not hardware/web_pins.py).
    wrong = [(rel, name) for rel, source in _modules(layer) for name in _imports(source)
             if name.split(".")[0] in forbidden]
    assert wrong == []


def test_the_architecture_doc_names_every_module():
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        doc = f.read()
    missing = []
    for rel, _ in _modules(*DEVICE_SIDE):
        folder, name = rel.rsplit("/", 1)
        stem = name[:-3]
        # Named as a file (`app.py`), by its path, or, in the lists of modes, ports and games,
        # by its module name (`meld_check`).
        names = ["`%s`" % name, "`%s`" % rel, "`%s/%s`" % (folder.split("/")[-1], name)]
        if folder in ("firmware/modes", "firmware/ports", "core/games"):
            names.append("`%s`" % stem)
        if not any(n in doc for n in names):
            missing.append(rel)
    assert missing == []


def test_device_code_chains_no_exception():
    # `raise X from err` prints "Warning: exception chaining not supported" on MicroPython's
    # unix, WebAssembly and ESP32 ports (py/vm.c, MP_BC_RAISE_FROM, MICROPY_WARNINGS), onto
    # the console a user reads; `from None` is silent there and on CircuitPython. The page's
    # own modules (host_tools/web/py) run on the WebAssembly port too.
    chained = []
    for rel, source in _modules(*DEVICE_SIDE, "host_tools/web/py"):
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Raise) and node.cause is not None and not (
                    isinstance(node.cause, ast.Constant) and node.cause.value is None):
                chained.append("%s:%d" % (rel, node.lineno))
    assert chained == []


def _complexities():
    for rel, source in _modules(*DEVICE_SIDE):
        tree = compile(source, rel, "exec", ast.PyCF_ONLY_AST)
        visitor = mccabe.PathGraphingAstVisitor()
        visitor.preorder(tree, visitor)
        lines = source.splitlines()
        for graph in visitor.graphs.values():
            yield rel, graph.entity, graph.complexity(), lines[graph.lineno - 1]


def test_the_loop_pass_is_within_the_bound():
    # The pass was the most complex function of the device code (35): it is split into
    # named steps and services.
    figures = {(rel, entity): figure for rel, entity, figure, _ in _complexities()}
    assert figures[("firmware/loop.py", "Loop.tick")] <= 10
    assert max(f for (rel, _), f in figures.items() if rel == "firmware/services.py") <= BOUND
