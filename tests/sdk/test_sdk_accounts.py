"""Signing in with the SDK: Client.log_in (a session), create_api_token (the secret, once), a wrong password as its
exception; the same on AsyncClient inside a running loop."""

from __future__ import annotations

import asyncio

import pytest

from dynabench_client import AsyncClient, AuthenticationError, Client, PermissionDeniedError


def test_log_in_then_mint_a_token_that_works_alone(stack, api):
    api.sign_up("sdk-ada", "ada's long password")
    with Client.log_in(stack.api_url, "sdk-ada", "ada's long password", progress=False) as session:
        assert session.me().username == "sdk-ada"
        token = session.create_api_token("notebook", ["read"])
    with Client(stack.api_url, token, progress=False) as reader:
        assert reader.me().username == "sdk-ada"
        with pytest.raises(PermissionDeniedError):  # a READ token may not mint tokens
            reader.create_api_token("another", ["READ"])
    with pytest.raises(AuthenticationError, match="Wrong username or password"):
        Client.log_in(stack.api_url, "sdk-ada", "not the password", progress=False)


def test_the_async_client_logs_in_too(stack, api):
    api.sign_up("sdk-grace", "grace's long password")

    async def run() -> str:
        client = await AsyncClient.log_in(stack.api_url, "sdk-grace", "grace's long password", progress=False)
        async with client:
            return (await client.me()).username

    assert asyncio.run(run()) == "sdk-grace"
