"""The webhook address guard (server/webhooks/addresses.py): URLs and resolved addresses refused or allowed."""

import ipaddress

import pytest

from server.webhooks.addresses import UrlRefused, check_addresses, is_public, parse_target


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.org/dynabench",
        "https://hooks.example.org:8443/x?y=1",
        "https://93.184.216.34/hook",
        "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
        "HTTPS://Hooks.Example.org/",
    ],
)
def test_public_https_urls_are_accepted(url):
    target = parse_target(url, allow_private=False)
    assert target.scheme == "https" and target.host == target.host.lower()


def test_the_target_carries_the_port_and_a_literal_address():
    assert parse_target("https://a.example.org/", False).port == 443
    assert parse_target("https://a.example.org:8443/", False).port == 8443
    assert parse_target("https://93.184.216.34/", False).literal == ipaddress.ip_address("93.184.216.34")
    assert parse_target("http://127.0.0.1:9000/", True).port == 9000


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://hooks.example.org/", "https://"),
        ("ftp://hooks.example.org/", "https://"),
        ("javascript:alert(1)", "https://"),
        ("hooks.example.org/path", "https://"),
        ("https://user:pw@hooks.example.org/", "user name"),
        ("https://hooks.example.org/#frag", "fragment"),
        ("https:///path", "no host"),
        ("https://127.0.0.1/", "private"),
        ("https://10.1.2.3/", "private"),
        ("https://192.168.0.1/", "private"),
        ("https://169.254.169.254/latest/meta-data", "private"),  # cloud metadata (link-local)
        ("https://100.64.0.1/", "private"),  # shared address space
        ("https://0.0.0.0/", "private"),
        ("https://[::1]/", "private"),
        ("https://[fe80::1]/", "private"),
        ("https://[fc00::1]/", "private"),
        ("https://[::ffff:127.0.0.1]/", "private"),  # IPv4-mapped loopback
        ("https://[2002:7f00:1::]/", "private"),  # 6to4 of 127.0.0.1
        ("https://[2002:a00:1::1]/", "private"),  # 6to4 of 10.0.0.1
        ("https://[fec0::1]/", "private"),  # site-local
        ("https://192.88.99.1/", "private"),  # the 6to4 relay anycast block
        ("https://[64:ff9b::7f00:1]/", "private"),  # NAT64 of 127.0.0.1
        ("https://224.0.0.1/", "private"),
        ("https://240.0.0.1/", "private"),
        ("https://localhost/", "local host"),
        ("https://api.localhost/", "local host"),
        ("https://printer.local/", "local host"),
        ("https://db.internal/", "local host"),
        ("https://exa mple.org/", "spaces"),
        ("https://bad_host!/", "host name"),
        ("https://hooks.example.org:99999/", "valid URL"),
        ("https://" + "a" * 2000 + ".org/", "at most"),
        ("", "at most"),
        ("https://ünïcode.example/", "characters"),
    ],
)
def test_refused_urls_say_why(url, words):
    with pytest.raises(UrlRefused) as refused:
        parse_target(url, allow_private=False)
    assert words in str(refused.value)


def test_the_operator_allowance_admits_http_and_private_targets():
    for url in ("http://127.0.0.1:8080/hook", "https://10.0.0.5/", "http://localhost:9/", "https://[::1]:8443/"):
        parse_target(url, allow_private=True)
    with pytest.raises(UrlRefused):
        parse_target("ftp://127.0.0.1/", allow_private=True)


def test_public_addresses():
    assert is_public(ipaddress.ip_address("8.8.8.8"))
    assert is_public(ipaddress.ip_address("2001:4860:4860::8888"))
    assert is_public(ipaddress.ip_address("2002:808:808::1"))  # 6to4 of a public address
    for text in ("127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.1.1", "100.64.0.1", "0.0.0.0",
                 "255.255.255.255", "::1", "::", "fe80::1", "fd00::1", "::ffff:10.0.0.1", "ff02::1", "192.0.2.1"):  # fmt: skip
        assert not is_public(ipaddress.ip_address(text)), text


def test_every_resolved_address_must_be_public():
    assert check_addresses(["93.184.216.34", "93.184.216.34"], False) == [ipaddress.ip_address("93.184.216.34")]
    with pytest.raises(UrlRefused, match="resolves to a private"):
        check_addresses(["93.184.216.34", "127.0.0.1"], False)  # one bad answer among good ones
    with pytest.raises(UrlRefused, match="does not resolve"):
        check_addresses([], False)
    assert len(check_addresses(["127.0.0.1", "fe80::1%eth0"], True)) == 2
