"""Who a request comes from, for per-address rate limits: the socket peer, or the client that a trusted
proxy names in X-Forwarded-For (TRUSTED_PROXIES). Pure functions.

A client may send any X-Forwarded-For it likes, so the header is read from the right: each hop a trusted
proxy appended is skipped, and the first address that is not a trusted proxy is the client. With no
trusted proxies (the default) the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from functools import lru_cache

UNKNOWN = "unknown"
IPV6_PREFIX = 64  # one IPv6 subscriber usually holds a whole /64: counted as one address


class TrustedProxies:
    def __init__(self, entries: Iterable[str]):
        entries = [entry.strip() for entry in entries if entry.strip()]
        self.everyone = "*" in entries
        self.networks = [ipaddress.ip_network(entry, strict=False) for entry in entries if entry != "*"]

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        ip = _ip(address)
        return ip is not None and any(ip in network for network in self.networks)

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)


@lru_cache(maxsize=8)
def trusted_proxies(entries: tuple[str, ...]) -> TrustedProxies:
    """Parsed once per settings value; an entry that is not an IP or a network stops the start (ValueError)."""
    return TrustedProxies(entries)


def client_address(peer: str | None, forwarded_for: Sequence[str], trusted: TrustedProxies) -> str:
    """The client of a connection from `peer` that carried these X-Forwarded-For header values."""
    address = (peer or "").strip() or UNKNOWN
    if not trusted or address not in trusted:
        return address
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",") if hop.strip()]
    while hops and address in trusted:
        address = _host(hops.pop())
    return address


def limit_key(address: str) -> str:
    """The address as rate limits count it: an IPv4 address as is, an IPv6 address by its /64."""
    ip = _ip(address)
    if ip is None:
        return address[:100]
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _host(hop: str) -> str:
    """An X-Forwarded-For entry without a port ("1.2.3.4:5678", "[::1]:80")."""
    if hop.startswith("["):
        return hop[1 : hop.find("]")] if "]" in hop else hop
    if hop.count(":") == 1:
        return hop.split(":", 1)[0]
    return hop
