"""Without WEBHOOKS_ALLOW_PRIVATE (production's default), hooks to private, loopback or local targets and plain
http:// are refused at registration, on an API process started without the test session's allowance."""

from tests.api.webhooks_helpers import CREATE, UPDATE
from tests.authz.conftest import extra_api
from tests.conftest import GraphQLClient, seed_builtin_tasks


def test_private_and_plain_http_targets_are_refused_at_registration(stack, api, admin_token):
    seed_builtin_tasks()
    # A hook the session's (permissive) API accepted, to try changing its URL on the strict one.
    hook_id = api(CREATE, {"t": "sentiment", "u": "http://127.0.0.1:9/hook", "e": ["ROUND_OPENED"]}, token=admin_token)[
        "createWebhook"
    ]["webhook"]["id"]
    with extra_api(stack, {"WEBHOOKS_ALLOW_PRIVATE": "0"}) as (url, _log):
        strict = GraphQLClient(url)
        refusals = {
            "http://127.0.0.1:9/hook": "Webhook URLs must start with https://.",
            "http://hooks.example.org/": "Webhook URLs must start with https://.",
            "https://127.0.0.1/hook": "Webhooks cannot call private, loopback or reserved addresses.",
            "https://169.254.169.254/latest/meta-data": "Webhooks cannot call private, loopback or reserved addresses.",
            "https://[::ffff:10.0.0.1]/": "Webhooks cannot call private, loopback or reserved addresses.",
            "https://localhost:8443/": "Webhooks cannot call local host names.",
            # Only the resolver turns these into 127.0.0.1: the check is on what the name resolves to.
            "https://2130706433/": "The URL's host resolves to a private, loopback or reserved address.",
            "https://0x7f.1/": "The URL's host resolves to a private, loopback or reserved address.",
        }
        for target, message in refusals.items():
            refused = strict(CREATE, {"t": "sentiment", "u": target, "e": ["ROUND_OPENED"]}, token=admin_token)["createWebhook"]
            assert refused["__typename"] == "InputError", (target, refused)
            assert refused["fields"] == [{"field": "url", "message": message}], target
        changed = strict(UPDATE, {"id": hook_id, "u": "https://10.0.0.7/"}, token=admin_token)["updateWebhook"]
        assert changed["__typename"] == "InputError" and changed["fields"][0]["field"] == "url"
        strict.http.close()
