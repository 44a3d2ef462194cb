"""The seams of docs/design.md §3, read from the source with ast (nothing is imported): SQL only as named `Query`
statements (no Piccolo ORM calls outside tables, migrations and the Piccolo config), another domain's rows only through
its service or the reads it exports (never its query room), and mutation files that call services only."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("server", "workers")
# Piccolo that is not the query builder: the engine Query runs on, and the migration runner.
PICCOLO_ALLOWED = ("piccolo.engine", "piccolo.apps.migrations")


@dataclass(frozen=True)
class Source:
    name: str  # dotted module name
    path: Path
    tree: ast.Module

    @property
    def package(self) -> str:
        return self.name if self.path.name == "__init__.py" else self.name.rpartition(".")[0]

    def where(self, node: ast.AST) -> str:
        return f"{self.path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def sources(packages: tuple[str, ...] = PACKAGES) -> dict[str, Source]:
    found = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = _module_name(path)
            found[name] = Source(name, path, ast.parse(path.read_text(), str(path)))
    return found


def is_query_room(module: str) -> bool:
    """`server/<domain>/queries.py`, a sub-room's `queries.py`, or a room split by subject (`contamination_queries.py`)."""
    last = module.rpartition(".")[2]
    return module.startswith("server.") and (last == "queries" or last.endswith("_queries"))


def is_orm_home(source: Source) -> bool:
    """Where Piccolo's tables and query builder belong."""
    return source.path.name in ("tables.py", "piccolo_app.py", "piccolo_conf.py") or "piccolo_migrations" in source.path.parts


def domain(module: str) -> str:
    """`server.<domain>…`; `server.graphql.<domain>…` mirrors it and counts as the same domain."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) < 2:
        return parts[0]
    if parts[1] == "graphql" and len(parts) > 2:
        return parts[2]
    return parts[1]


def is_mutation_file(source: Source) -> bool:
    parts = source.name.split(".")
    return parts[:2] == ["server", "graphql"] and len(parts) == 5 and parts[3] == "mutations"


# Imports --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    module: str  # the module loaded
    bound_as: str  # the local name
    target: str  # what the local name refers to, dotted: a module, or `module.name`
    node: ast.stmt


def imports(source: Source, modules: set[str]) -> Iterator[Imported]:
    """Every import, at module level or inside a function, with relative ones resolved."""
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    yield Imported(alias.name, alias.asname, alias.name, node)
                else:  # `import a.b.c` binds `a`
                    top = alias.name.partition(".")[0]
                    yield Imported(alias.name, top, top, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = source.package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                # `from pkg import sub` loads the module pkg.sub when there is one, else names something pkg defines.
                loaded = submodule if submodule in modules else origin
                yield Imported(loaded, alias.asname or alias.name, submodule, node)


# The checks -----------------------------------------------------------------------------------------------------------


def table_classes(all_sources: dict[str, Source]) -> dict[str, set[str]]:
    """{tables module: names of the Piccolo Table classes it defines}."""
    found: dict[str, set[str]] = {}
    for source in all_sources.values():
        if source.path.name != "tables.py":
            continue
        for node in source.tree.body:
            if isinstance(node, ast.ClassDef) and any(
                (isinstance(b, ast.Name) and b.id == "Table") or (isinstance(b, ast.Attribute) and b.attr == "Table")
                for b in node.bases
            ):
                found.setdefault(source.name, set()).add(node.name)
    return found


def _root_name(node: ast.expr) -> tuple[str, list[str]] | None:
    """`a.b.c` → ("a", ["b", "c"]); None for anything that does not start at a plain name."""
    attributes: list[str] = []
    while isinstance(node, ast.Attribute):
        attributes.insert(0, node.attr)
        node = node.value
    return (node.id, attributes) if isinstance(node, ast.Name) else None


def orm_uses(source: Source, tables: dict[str, set[str]], modules: set[str]) -> Iterator[str]:
    """Calls on (or of) a Piccolo Table class, however it was imported, and imports of Piccolo's query builder."""
    classes = {f"{module}.{name}" for module, names in tables.items() for name in names}
    bound: dict[str, str] = {}  # local name → the dotted thing it refers to
    for found in imports(source, modules):
        if found.module.startswith("piccolo") and not found.module.startswith(PICCOLO_ALLOWED):
            yield f"{source.where(found.node)}: imports Piccolo's query builder ({found.module})"
        bound[found.bound_as] = found.target
    for node in ast.walk(source.tree):
        rooted = _root_name(node.func) if isinstance(node, ast.Call) else None
        if rooted is None or rooted[0] not in bound:
            continue
        # `Task.select`, `tables.Task.objects`, `server.tasks.tables.Task`: the dotted callee starts at a table class.
        parts = [*bound[rooted[0]].split("."), *rooted[1]]
        if any(".".join(parts[:n]) in classes for n in range(1, len(parts) + 1)):
            yield f"{source.where(node)}: Piccolo ORM call {ast.unparse(node.func)}(…)"


def query_room_imports(source: Source, modules: set[str]) -> Iterator[tuple[Imported, str]]:
    """Each import of a query room, with the query room it loads."""
    for found in imports(source, modules):
        if is_query_room(found.module) and found.module in modules:
            yield found, found.module


def test_no_piccolo_orm_calls_outside_tables_and_migrations() -> None:
    all_sources = sources()
    tables = table_classes(all_sources)
    assert len(tables) >= 5, "the scan found no Piccolo tables: is ROOT right?"
    modules = set(all_sources)
    offending = sorted({line for s in all_sources.values() if not is_orm_home(s) for line in orm_uses(s, tables, modules)})
    assert not offending, (
        "Piccolo ORM outside tables.py, piccolo_migrations/ and the Piccolo config; write a named `Query` statement "
        "(server/core/sql.py) in the domain's query room instead:\n" + "\n".join(offending)
    )


def test_no_module_reads_another_domains_query_room() -> None:
    all_sources = sources()
    modules = set(all_sources)
    offending = [
        f"{s.where(found.node)}: {s.name} (domain {domain(s.name)}) imports {room}, the query room of domain "
        f"{domain(room)}; read through server/{domain(room)}/reads.py or its service"
        for s in all_sources.values()
        for found, room in query_room_imports(s, modules)
        if domain(room) != domain(s.name)
    ]
    assert not offending, "\n".join(offending)


def test_mutation_files_call_services_only() -> None:
    all_sources = sources()
    modules = set(all_sources)
    mutations = [s for s in all_sources.values() if is_mutation_file(s)]
    assert len(mutations) >= 20, "the scan found no mutation files: is the layout still server/graphql/<d>/mutations/?"
    offending = [
        f"{s.where(found.node)}: the mutation {s.name} imports the query room {room}; call a service of its domain"
        for s in mutations
        for found, room in query_room_imports(s, modules)
    ]
    assert not offending, "\n".join(offending)


# The scanner itself, on small sources: each kind of offence is found, and the allowed shapes are not ----------------


def _scan(code: str, name: str = "server.evaluation.models.service") -> Source:
    return Source(name, ROOT / Path(*name.split(".")).with_suffix(".py"), ast.parse(code))


_TABLES = {"server.tasks.tables": {"Task", "Round"}}
_MODULES = {"server.tasks", "server.tasks.tables", "server.tasks.queries", "server.tasks.reads", "server.tasks.service"}


def test_the_scanner_finds_orm_calls_however_the_table_is_imported() -> None:
    for code in (
        "from server.tasks.tables import Task\nasync def f():\n    return await Task.select().where(Task.id == 1)",
        "from server.tasks.tables import Round as R\nasync def f():\n    await R.update({R.end_at: None})",
        "from server.tasks import tables\nasync def f():\n    await tables.Task.objects().first()",
        "import server.tasks.tables\nasync def f():\n    await server.tasks.tables.Task.raw('SELECT 1')",
        "from server.tasks.tables import Task\nasync def f():\n    await Task.insert(Task(code='x'))",
        "from .tables import Task\nasync def f():\n    return await Task.count()",
    ):
        found = list(orm_uses(_scan(code, "server.tasks.service"), _TABLES, _MODULES))
        assert found, code
    assert list(orm_uses(_scan("from piccolo.columns.combination import Where"), _TABLES, _MODULES))
    clean = (
        "from piccolo.engine import engine_finder\nfrom server.tasks import reads\nasync def f():\n    await reads.task_by_id(1)"
    )
    assert not list(orm_uses(_scan(clean), _TABLES, _MODULES))
    assert not list(orm_uses(_scan("def f(s):\n    return s.update({1: 2}) or s.count('a')"), _TABLES, _MODULES))


def test_the_scanner_finds_query_room_imports_however_written() -> None:
    for code in (
        "from server.tasks import queries",
        "from server.tasks import service, queries as task_queries",
        "from server.tasks.queries import task_by_id",
        "import server.tasks.queries",
        "def f():\n    from server.tasks import queries\n    return queries",
    ):
        rooms = [room for _, room in query_room_imports(_scan(code), _MODULES)]
        assert rooms == ["server.tasks.queries"], code
    assert not list(query_room_imports(_scan("from server.tasks import reads, service"), _MODULES))
    assert domain("server.graphql.tasks.loaders") == domain("server.tasks.queries") == "tasks"
    assert domain("server.annotation.quality.gold") == domain("server.annotation.examples.queries")
    assert domain("workers.main") != domain("server.tasks.queries")
