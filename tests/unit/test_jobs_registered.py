"""Every job a module queues is declared by a domain and registered in the worker, with the declared arguments.

Enqueue sites are found in the source (ast): each call of `jobs.enqueue`, `jobs.enqueue_later` or `jobs.enqueue_once`
names its job as `<alias>.<job>`, where `<alias>` is a module the caller imported; that module is imported here and
the name looked up."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil

import pytest

import server
from server.core.jobs import Job, declaration_of
from tests.unit.import_graph import project_modules
from workers.main import WorkerSettings

ENQUEUERS = {"enqueue": 1, "enqueue_later": 2, "enqueue_once": 3}  # function -> position of the job argument


def enqueue_sites() -> list[tuple[str, int, str, str]]:
    """(module, line, alias's module, job name) for every enqueue call in server/ and workers/."""
    sites = []
    for module in project_modules().values():
        tree = ast.parse(module.path.read_text())
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            position = ENQUEUERS.get(node.func.attr)
            if position is None or not (isinstance(node.func.value, ast.Name) and node.func.value.id == "jobs"):
                continue
            named = node.args[position] if len(node.args) > position else None
            assert isinstance(named, ast.Attribute) and isinstance(named.value, ast.Name), (
                f"{module.name} line {node.lineno}: queue a job as <declarations module>.<job>"
            )
            sites.append((module.name, node.lineno, aliases[named.value.id], named.attr))
    return sites


def declared_jobs() -> dict[str, Job]:
    """Every job declared in a `jobs` module of the server package."""
    found: dict[str, Job] = {}
    for info in pkgutil.walk_packages(server.__path__, "server."):
        if info.name.rpartition(".")[2] != "jobs" or ".piccolo_migrations" in info.name:
            continue
        for value in vars(importlib.import_module(info.name)).values():
            if isinstance(value, Job) and value.module == info.name:
                assert value.name not in found, f"job {value.name} declared twice: {found[value.name]!r}, {value!r}"
                found[value.name] = value
    return found


def registered() -> dict[str, Job]:
    runs: dict[str, Job] = {}
    for function in WorkerSettings.functions:
        declared = declaration_of(function)
        assert declared is not None, f"{function.__name__} is registered as a job but runs no declared job"
        assert declared.name not in runs, f"two functions run job {declared.name}"
        runs[declared.name] = declared
    return runs


def test_every_enqueued_job_is_declared_and_registered() -> None:
    sites = enqueue_sites()
    assert len(sites) >= 20  # the scan sees the enqueue calls (a rename of `jobs.enqueue` would blind it)
    runs = registered()
    for module, line, declarations, name in sites:
        value = getattr(importlib.import_module(declarations), name, None)
        assert isinstance(value, Job), f"{module} line {line} queues {declarations}.{name}, which is not a declared job"
        assert runs.get(value.name) is value, f"{module} line {line} queues job {value.name}, which the worker does not run"


def test_every_declared_job_is_registered_once() -> None:
    assert set(declared_jobs()) == set(registered())


@pytest.mark.parametrize("name", sorted(declared_jobs()))
def test_the_worker_runs_each_job_with_its_declared_arguments(name: str) -> None:
    function = next(f for f in WorkerSettings.functions if declaration_of(f).name == name)
    declared = declared_jobs()[name]
    ran = list(inspect.signature(function).parameters.values())[1:]
    assert [(p.name, p.kind, p.default) for p in ran] == [
        (p.name, p.kind, p.default) for p in declared.signature.parameters.values()
    ]
    assert function.__name__ == name  # arq runs a job by the function's name


def test_a_function_that_does_not_match_its_declaration_is_refused() -> None:
    from server.core.jobs import job, runs

    @job
    async def resize(image_id: int) -> None:
        """An example declaration."""

    with pytest.raises(TypeError, match="declares"):

        @runs(resize)
        async def resize(ctx: dict, image: int) -> None:
            return None

    with pytest.raises(TypeError, match="same name"):

        @runs(resize)
        async def shrink(ctx: dict, image_id: int) -> None:
            return None
