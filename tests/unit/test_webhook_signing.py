"""Webhook signatures (server/webhooks/signing.py): what a receiver checks, and the derived per-hook secrets."""

import hashlib
import hmac

from server.webhooks.signing import derive_secret, new_salt, signature_header, verify_signature

SECRET = "whsec_" + "a" * 64
BODY = b'{"id":"3f0c","type":"example.created","task":"sentiment","data":{}}'
T = 1_800_000_000


def test_a_signed_body_verifies_within_the_tolerance():
    header = signature_header(SECRET, T, BODY)
    assert header.startswith(f"t={T},v1=")
    assert verify_signature(SECRET, header, BODY, now=T)
    assert verify_signature(SECRET, header, BODY, now=T + 299, tolerance=300)
    assert verify_signature(SECRET, header, BODY, now=T - 299, tolerance=300)  # a receiver's clock may be behind


def test_the_signature_is_the_documented_hmac():
    expected = hmac.new(SECRET.encode(), f"{T}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert signature_header(SECRET, T, BODY) == f"t={T},v1={expected}"


def test_a_replay_outside_the_window_fails():
    header = signature_header(SECRET, T, BODY)
    assert not verify_signature(SECRET, header, BODY, now=T + 301, tolerance=300)


def test_any_change_fails():
    header = signature_header(SECRET, T, BODY)
    assert not verify_signature(SECRET, header, BODY + b" ", now=T)
    assert not verify_signature("whsec_other", header, BODY, now=T)
    # The timestamp is signed: moving it forward to beat the replay window breaks the signature.
    moved = header.replace(f"t={T}", f"t={T + 1000}")
    assert not verify_signature(SECRET, moved, BODY, now=T + 1000)


def test_one_matching_signature_among_several_is_enough():
    good = signature_header(SECRET, T, BODY).split(",")[1]
    assert verify_signature(SECRET, f"t={T},v1={'0' * 64},{good}", BODY, now=T)


def test_malformed_headers_are_not_valid():
    good = signature_header(SECRET, T, BODY)
    v1 = good.split(",")[1]
    for header in (
        None,
        "",
        "garbage",
        v1,  # no timestamp
        f"t={T}",  # no signature
        f"t=abc,{v1}",
        f"t={T},t={T},{v1}",
        f"t=-{T},{v1}",
        f"t={T},v1=é",
        f"t=١٢٣,{v1}",  # non-ASCII digits
        "t=1," + "v1=x," * 2000,
    ):
        assert not verify_signature(SECRET, header, BODY, now=T), header


def test_secrets_are_derived_from_the_key_and_the_salt():
    salt = new_salt()
    assert len(salt) == 64 and salt != new_salt()
    secret = derive_secret(b"k" * 32, salt)
    assert secret.startswith("whsec_") and secret == derive_secret(b"k" * 32, salt)
    assert secret != derive_secret(b"j" * 32, salt)
    assert secret != derive_secret(b"k" * 32, new_salt())


def test_a_rotated_out_secret_signs_as_a_second_entry():
    previous = "whsec_previous"
    header = signature_header(SECRET, T, BODY, previous)
    assert header.count("v1=") == 2
    assert verify_signature(SECRET, header, BODY, now=T) and verify_signature(previous, header, BODY, now=T)
    assert not verify_signature("whsec_other", header, BODY, now=T)
