"""The core modules a device-side benchmark needs on the emulated Pico's RAM disk: those named
and every core module they import, found by reading their imports (a hand-kept list missed
core/meldset_check.py once it was split off, and make bench skipped the rp2 figures)."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _path(module):
    base = os.path.join(ROOT, *module.split("."))
    return base + ".py" if os.path.exists(base + ".py") else os.path.join(base, "__init__.py")


def _imports(module):
    """The core modules `module` imports anywhere in its file (a function's lazy import too)."""
    with open(_path(module), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update("%s.%s" % (node.module, a.name) for a in node.names)
    return {m for m in found if m.split(".")[0] == "core" and os.path.exists(_path(m))}


def core_closure(*modules):
    """Paths relative to the root ("core/x.py"), sorted, of `modules`, the core modules they
    import, transitively, and the packages that hold them."""
    seen, todo = set(), list(modules)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:k]) for k in range(1, len(parts)))
        todo.extend(_imports(module))
    return sorted(os.path.relpath(_path(m), ROOT).replace(os.sep, "/") for m in seen)
