"""Which webhook URLs and addresses may be called (pure: no I/O), the guard against server-side request forgery.

A hook's URL must be https:// (http:// only when the operator allows private targets, WEBHOOKS_ALLOW_PRIVATE, which
is for tests and closed networks), carry no credentials, and name a host. Every address the host resolves to must be
public (not private, loopback, link-local, site-local, multicast, reserved, shared, unspecified or the 6to4 relay
block, and an IPv4-mapped or 6to4 IPv6 address is judged as its IPv4 address); the check runs at registration and again before every delivery (DNS can
change), and the delivery connects to the very address that was checked (server/webhooks/sender.py).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from server.core.i18n import tr

URL_MAX = 2000
LOCAL_NAMES = ("localhost", "localhost.localdomain")
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str  # lower case; an IPv6 literal without brackets
    port: int
    literal: IPAddress | None  # the host as an address, when the URL names one


class UrlRefused(ValueError):
    """The message says why, in words fit for the hook's owner."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message  # a Text (server/core/i18n.py): str(refused) is plain English


def parse_target(url: str, allow_private: bool) -> Target:
    """The URL's parts, or UrlRefused."""
    if not isinstance(url, str) or not url or len(url) > URL_MAX:
        raise UrlRefused(tr("Give a URL of at most {max} characters.", max=URL_MAX))
    if not url.isascii() or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise UrlRefused(tr("The URL has spaces or characters URLs cannot hold (percent-encode them)."))
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname or ""
    except ValueError:
        raise UrlRefused(tr("That is not a valid URL.")) from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and allow_private):
        raise UrlRefused(tr("Webhook URLs must start with https://."))
    if parts.username is not None or parts.password is not None:
        raise UrlRefused(tr("Webhook URLs cannot carry a user name or password."))
    if parts.fragment:
        raise UrlRefused(tr("Webhook URLs cannot have a #fragment."))
    if not host:
        raise UrlRefused(tr("The URL names no host."))
    literal = _literal(host)
    if literal is None and not _valid_hostname(host):
        raise UrlRefused(tr("The URL's host is not a valid host name."))
    if not allow_private:
        if literal is not None and not is_public(literal):
            raise UrlRefused(tr("Webhooks cannot call private, loopback or reserved addresses."))
        if host in LOCAL_NAMES or host.endswith(LOCAL_SUFFIXES):
            raise UrlRefused(tr("Webhooks cannot call local host names."))
    return Target(url=url, scheme=scheme, host=host, port=port or (443 if scheme == "https" else 80), literal=literal)


# Routable on paper, but relays to whatever IPv4 address they are given: the deprecated 6to4 relay anycast block.
RELAY_ANYCAST = ipaddress.ip_network("192.88.99.0/24")


def is_public(address: IPAddress) -> bool:
    """A globally routable unicast address. An IPv6 address that carries an IPv4 one to reach (IPv4-mapped, 6to4) is
    judged as that IPv4 address; site-local IPv6 (fec0::/10, deprecated but still routed inside some networks) is not
    public."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.is_site_local:
            return False
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is not None:
            address = embedded
    if isinstance(address, ipaddress.IPv4Address) and address in RELAY_ANYCAST:
        return False
    return address.is_global and not address.is_multicast and not address.is_reserved


def check_addresses(addresses: list[str], allow_private: bool) -> list[IPAddress]:
    """The resolved addresses (in order, duplicates dropped), or UrlRefused when there are none or, unless private
    targets are allowed, when any of them is not public (one bad answer among good ones is refused too: the
    client could pick it)."""
    parsed: list[IPAddress] = []
    for text in addresses:
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if address not in parsed:
            parsed.append(address)
    if not parsed:
        raise UrlRefused(tr("The URL's host does not resolve."))
    if not allow_private and not all(is_public(address) for address in parsed):
        raise UrlRefused(tr("The URL's host resolves to a private, loopback or reserved address."))
    return parsed


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _valid_hostname(host: str) -> bool:
    if len(host) > 253 or host.endswith("."):
        host = host[:-1] if host.endswith(".") else host
        if len(host) > 253:
            return False
    labels = host.split(".")
    return all(
        0 < len(label) <= 63 and label[0] != "-" and label[-1] != "-" and all(c.isalnum() or c in "-_" for c in label)
        for label in labels
    )
