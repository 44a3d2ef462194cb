"""Every query, mutation and subscription of the public schema has a row in the authorization matrix: a new
operation fails here until its row says who may call it."""

from graphql import build_schema

from tests.authz import (
    test_matrix_account_recovery,
    test_matrix_accounts_tasks,
    test_matrix_admin,
    test_matrix_adversary,
    test_matrix_annotation,
    test_matrix_battles,
    test_matrix_browse,
    test_matrix_campaigns,
    test_matrix_conversations,
    test_matrix_form_components,
    test_matrix_llm_endpoints,
    test_matrix_models_training,
    test_matrix_notifications,
    test_matrix_personal_data,
    test_matrix_quality,
    test_matrix_served_models,
    test_matrix_suggestions,
    test_matrix_task_lifecycle,
    test_matrix_webhooks,
)
from tests.authz.world import PRINCIPALS
from tests.conftest import ROOT

MODULES = (
    test_matrix_accounts_tasks,
    test_matrix_account_recovery,
    test_matrix_annotation,
    test_matrix_models_training,
    test_matrix_campaigns,
    test_matrix_quality,
    test_matrix_notifications,
    test_matrix_browse,
    test_matrix_webhooks,
    test_matrix_task_lifecycle,
    test_matrix_served_models,
    test_matrix_admin,
    test_matrix_form_components,
    test_matrix_conversations,
    test_matrix_llm_endpoints,
    test_matrix_battles,
    test_matrix_suggestions,
    test_matrix_adversary,
    test_matrix_personal_data,
)


def _schema_operations() -> set[str]:
    schema = build_schema((ROOT / "schema.graphql").read_text())
    roots = {"Query": schema.query_type, "Mutation": schema.mutation_type, "Subscription": schema.subscription_type}
    return {f"{kind}.{name}" for kind, root in roots.items() for name in root.fields}


def test_every_operation_of_the_schema_is_in_the_matrix():
    covered = {op.field for module in MODULES for op in module.OPS}
    schema = _schema_operations()
    assert len(schema) >= 42
    assert sorted(schema - covered) == [], "operations without a row in the authorization matrix"
    assert sorted(covered - schema) == [], "matrix rows for operations the schema does not have"


def test_every_row_names_an_outcome_for_every_principal():
    names = [op.name for module in MODULES for op in module.OPS]
    assert len(names) == len(set(names)), "two rows with one name"
    for module in MODULES:
        for op in module.OPS:
            assert list(op.expected()) == list(PRINCIPALS), op.name
            if op.kind == "Mutation" and "ok" in op.expect:
                assert op.ok_type, f"{op.name}: name the success type of its result union"
