"""No import circles among the Python files of server/ and workers/ (any import, function-local ones included):
a module is loaded before the modules that use it, so each room can be read, tested and moved on its own."""

from __future__ import annotations

from collections import defaultdict

from tests.unit.import_graph import cycles, imports, project_modules


def test_no_import_cycles() -> None:
    modules = project_modules()
    edges: dict[str, set[str]] = defaultdict(set)
    where: dict[tuple[str, str], int] = {}
    for found in imports(modules):
        edges[found.importer].add(found.imported)
        where.setdefault((found.importer, found.imported), found.line)
    for name in modules:
        edges.setdefault(name, set())
    described = []
    for component in cycles(edges):
        members = set(component)
        links = [
            f"    {importer} (line {where[(importer, imported)]}) imports {imported}"
            for importer in component
            for imported in sorted(edges[importer] & members)
        ]
        described.append("circle of " + ", ".join(component) + ":\n" + "\n".join(links))
    assert not described, "\n".join(described)


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_workers_only_assemble_the_worker() -> None:
    """Domains never import workers/ (workers/ imports the domains' job functions)."""
    modules = project_modules()
    wrong = [
        f"{found.importer} (line {found.line}) imports {found.imported}"
        for found in imports(modules)
        if found.imported.split(".")[0] == "workers"
        and found.importer.split(".")[0] == "server"
        and found.importer != "server.cli.main"  # `dynabench worker` starts the worker it assembles
    ]
    assert not wrong, "\n".join(wrong)
