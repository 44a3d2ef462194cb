"""The pure parts of LLM endpoints: the settings' rules (server/generation/endpoints/rules.py), the sealed API keys
(crypto.py), the scrubbing of what a server says before it is quoted (failures.py) and what a task's owners are told
of an endpoint they may choose (service.EndpointChoice)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from server.core.errors import ServiceError
from server.core.settings import Settings
from server.generation.endpoints import crypto, rules, service
from server.generation.endpoints.failures import scrub, secrets_of

SECRET = "s" * 40


def _fields(values: dict, new: bool = True) -> list[str]:
    with pytest.raises(ServiceError) as refused:
        rules.cleaned(values, new=new)
    return [problem.field for problem in refused.value.fields]


def test_a_new_endpoint_gets_the_defaults_and_clean_values():
    clean = rules.cleaned({"name": "gpt-4o_mini", "base_url": " https://api.example.org/v1/ ", "model": "gpt"}, new=True)
    assert clean == {
        "name": "gpt-4o_mini",
        "base_url": "https://api.example.org/v1",
        "model": "gpt",
        "api_key": "",
        "timeout_s": 30.0,
        "max_concurrency": 4,
        "tokens_per_user_per_day": 0,
        "tokens_per_task_per_day": 0,
        "price_per_1k_prompt_tokens": Decimal(0),
        "price_per_1k_completion_tokens": Decimal(0),
        "enabled": True,
    }
    assert rules.cleaned({"price_per_1k_prompt_tokens": 0.0025, "timeout_s": 5}, new=False) == {
        "price_per_1k_prompt_tokens": Decimal("0.002500"),
        "timeout_s": 5.0,
    }


@pytest.mark.parametrize(
    "url",
    [
        "ftp://h/v1",
        "https://",
        "https://u:p@h/v1",
        "https://u@h/v1",
        "https://h/v1?api_key=x",
        "https://h/v1#frag",
        "https://h:0/v1",
        "https://h:99999/v1",
        "https://h/v 1",
        "http://h/\x00",
        "https://h/" + "a" * 600,
    ],
)
def test_base_urls_with_credentials_queries_or_no_host_are_refused(url):
    assert _fields({"base_url": url}, new=False) == ["baseUrl"]


def test_every_refused_field_is_named_at_once_and_a_new_endpoint_needs_its_three():
    assert _fields({}) == ["name", "baseUrl", "model"]
    bad = {
        "name": "9lives",
        "base_url": "https://h/v1",
        "model": "m" * 201,
        "api_key": "bad key",
        "timeout_s": float("nan"),
        "max_concurrency": True,
        "tokens_per_user_per_day": 2_000_000_001,
        "tokens_per_task_per_day": -1,
        "price_per_1k_prompt_tokens": float("inf"),
        "price_per_1k_completion_tokens": 1_000_000,
        "enabled": "yes",
    }
    assert _fields(bad) == [
        "name",
        "model",
        "apiKey",
        "timeoutS",
        "maxConcurrency",
        "tokensPerUserPerDay",
        "tokensPerTaskPerDay",
        "pricePer1kPromptTokens",
        "pricePer1kCompletionTokens",
        "enabled",
    ]
    assert _fields({"api_key": "sk-\r\nX-Injected: 1"}, new=False) == ["apiKey"]


def test_a_sealed_key_opens_only_with_its_secret_and_its_endpoints_name():
    settings = Settings(jwt_secret=SECRET)
    sealed = crypto.seal(settings, "gpt", "sk-abc123")
    assert sealed.startswith("v1:") and "sk-abc123" not in sealed
    assert sealed != crypto.seal(settings, "gpt", "sk-abc123")  # a fresh nonce each time
    assert crypto.open_sealed(settings, "gpt", sealed) == "sk-abc123"
    assert crypto.seal(settings, "gpt", "") == "" and crypto.open_sealed(settings, "gpt", "") == ""
    with pytest.raises(crypto.KeyUnreadable):
        crypto.open_sealed(settings, "other", sealed)  # copied to another endpoint's row
    with pytest.raises(crypto.KeyUnreadable):
        crypto.open_sealed(Settings(jwt_secret="t" * 40), "gpt", sealed)  # the secret changed
    with pytest.raises(crypto.KeyUnreadable):
        crypto.open_sealed(settings, "gpt", sealed[:-4] + "AAAA")
    # ENDPOINT_KEY_SECRET, when set, is the secret (whatever JWT_SECRET is).
    own = Settings(jwt_secret=SECRET, endpoint_key_secret="e" * 32)
    assert crypto.open_sealed(Settings(endpoint_key_secret="e" * 32), "gpt", crypto.seal(own, "gpt", "k" * 8)) == "k" * 8


def test_without_a_secret_keys_are_refused_with_what_to_set():
    for settings in (Settings(), Settings(jwt_secret="short"), Settings(jwt_secret=SECRET, endpoint_key_secret="short")):
        with pytest.raises(crypto.KeySecretMissing) as missing:
            crypto.seal(settings, "gpt", "sk-abc123")
        assert "ENDPOINT_KEY_SECRET" in str(missing.value)


def test_scrub_removes_the_key_the_address_and_credentials_from_what_a_server_said():
    key, url = "sk-live-abcdef123456", "http://10.1.2.3:8080/v1"
    said = (
        f"upstream {url}/chat/completions (host 10.1.2.3:8080) refused Authorization: Bearer {key}; "
        f"echo {key[:-1]}x token=hunter2hunter2\n\n" + "z" * 500
    )
    clean = scrub(said, secrets_of(key, url), "gpt")
    assert key not in clean and "10.1.2.3" not in clean and "hunter2" not in clean and "\n" not in clean
    assert clean.endswith("…") and len(clean) <= 201


async def test_an_owner_is_told_an_endpoints_name_model_and_limits_only_and_of_none_for_other_kinds():
    now = datetime.now(UTC)
    row = {
        "id": 1, "name": "gpt", "base_url": "http://10.1.2.3:8080/v1", "model": "gpt-4o", "api_key_sealed": "v1:xyz",
        "timeout_s": 20.0, "max_concurrency": 4, "tokens_per_user_per_day": 100, "tokens_per_task_per_day": 0,
        "price_per_1k_prompt_tokens": Decimal("0.1"), "price_per_1k_completion_tokens": Decimal("0.2"), "enabled": True,
        "created_at": now, "updated_at": now,
    }  # fmt: skip
    choice = asdict(service.EndpointChoice.of(row))  # type: ignore[arg-type]
    assert choice == {
        "name": "gpt",
        "model": "gpt-4o",
        "timeout_s": 20.0,
        "tokens_per_user_per_day": 100,
        "tokens_per_task_per_day": 0,
    }
    # An endpoint cannot judge a classification (or QA) task's examples: nothing to choose, and nothing is read.
    assert await service.choices("classification") == [] and await service.choices("extractive_qa") == []
