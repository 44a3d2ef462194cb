"""compose.yaml keeps the researchers' Triton isolated and every service behind a credential (docs/deploy.md,
"Isolation"). Read as YAML: Docker cannot run here, so this checks the file, not running containers."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from server.core.triton_clients import CONTROL_HEADER

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
GATEWAY_CFG = (ROOT / "deploy" / "sandbox-gateway.cfg").read_text()
RESTRICTED = {"model-repository", "model-config"}


def networks_of(name: str) -> set[str]:
    networks = SERVICES[name].get("networks") or {}
    return set(networks)


def required(variable: str) -> str:
    """The compose spelling of a variable that must be set (no default): ${NAME:?message}."""
    return r"\$\{" + variable + r":\?[^}]*\}"


def restriction(flag: str, command: list[str]) -> tuple[set[str], str]:
    """The restricted API groups and the `key=value` of a --http-restricted-api / --grpc-restricted-protocol."""
    [value] = [arg.split("=", 1)[1] for arg in command if arg.startswith(f"--{flag}=")]
    groups, _, key_value = value.partition(":")
    return set(groups.split(",")), key_value


def test_the_sandbox_network_is_internal_and_holds_only_the_submissions_triton_and_its_gateway():
    assert COMPOSE["networks"]["sandbox"]["internal"] is True
    on_sandbox = {name for name in SERVICES if "sandbox" in networks_of(name)}
    assert on_sandbox == {"triton-submissions", "sandbox-gateway"}
    assert networks_of("triton-submissions") == {"sandbox"}
    for name in on_sandbox:
        assert "ports" not in SERVICES[name] and "expose" not in SERVICES[name], name
        assert SERVICES[name].get("network_mode") is None, name


def test_no_api_port_and_no_worker_metrics_port_on_the_sandbox():
    assert "sandbox" not in networks_of("app")  # serves the API on 8000
    assert SERVICES["worker"]["environment"]["WORKER_METRICS_PORT"] == "9100"
    assert "sandbox" not in networks_of("worker")
    for name in ("app", "worker"):
        assert SERVICES[name]["environment"]["TRITON_SUBMISSIONS_URL"] == "sandbox-gateway:8000"


def test_the_gateway_relays_only_to_the_submissions_triton():
    servers = re.findall(r"^\s*server\s+\S+\s+(\S+)", GATEWAY_CFG, flags=re.MULTILINE)
    assert sorted(servers) == ["triton-submissions:8000", "triton-submissions:8002", "triton-submissions:8003"]
    assert sorted(re.findall(r"^\s*bind\s+(\S+)", GATEWAY_CFG, flags=re.MULTILINE)) == [":8000", ":8002", ":8003"]
    assert re.search(r"^\s*mode\s+tcp\b", GATEWAY_CFG, flags=re.MULTILINE)
    gateway = SERVICES["sandbox-gateway"]
    assert networks_of("sandbox-gateway") == {"backend", "sandbox"}
    assert "./deploy/sandbox-gateway.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in gateway["volumes"]
    assert gateway["read_only"] is True and gateway["cap_drop"] == ["ALL"]
    assert gateway["user"] not in ("0", "root", "0:0") and "no-new-privileges:true" in gateway["security_opt"]


def test_model_control_needs_the_control_key_on_both_tritons():
    command = SERVICES["triton"]["command"]
    for flag in ("http-restricted-api", "grpc-restricted-protocol"):
        groups, key_value = restriction(flag, command)
        assert groups >= RESTRICTED, ("triton", flag)
        header, _, value = key_value.partition("=")
        assert header == CONTROL_HEADER == "dynabench-control-key"
        assert re.fullmatch(required("TRITON_CONTROL_KEY"), value), value
    # The submissions Triton is started by the sandbox agent, which reads the key on stdin and
    # restricts the same API groups (its own restriction is tested against a real Triton in
    # tests/runtime/test_sandbox.py); gRPC is off there.
    submissions = SERVICES["triton-submissions"]
    script = " ".join(submissions["command"])
    assert "python3 -I /opt/dynabench/agent " in script and '"$$TRITON_CONTROL_KEY" |' in script
    assert re.fullmatch(required("TRITON_CONTROL_KEY"), submissions["environment"]["TRITON_CONTROL_KEY"])
    from server.sandbox.agent import __main__ as agent

    assert set(agent.RESTRICTED_APIS.split(",")) >= RESTRICTED
    for name_ in ("app", "worker"):
        assert re.fullmatch(required("TRITON_CONTROL_KEY"), SERVICES[name_]["environment"]["TRITON_CONTROL_KEY"])
    assert "TRITON_CONTROL_KEY" not in (SERVICES["migrate"].get("environment") or {})


def test_the_submissions_triton_is_confined():
    service = SERVICES["triton-submissions"]
    assert service["read_only"] is True
    tmpfs = {entry.split(":", 1)[0]: entry.split(":", 1)[1].split(",") for entry in service["tmpfs"]}
    assert set(tmpfs) == {"/tmp", "/dev/shm"}
    for options in tmpfs.values():
        assert any(option.startswith("size=") for option in options)
        assert {"noexec", "nosuid", "nodev"} <= set(options)
    assert "shm_size" not in service  # /dev/shm is the size-limited tmpfs above
    assert service["pids_limit"] and service["mem_limit"] and service["cpus"]
    assert service["memswap_limit"] == service["mem_limit"]  # no swap beyond the memory limit
    user = str(service["user"]).split(":")
    assert user[0].isdigit() and int(user[0]) != 0 and int(user[1]) != 0
    assert service["cap_drop"] == ["ALL"] and "cap_add" not in service and not service.get("privileged")
    assert "no-new-privileges:true" in service["security_opt"]
    assert "deploy" not in service and "devices" not in service  # no GPU unless the operator adds one
    assert all(volume.endswith(":ro") for volume in service["volumes"])
    assert not [arg for arg in service["command"] if arg.startswith("--load-model")]


def test_postgres_and_redis_need_passwords_that_the_urls_carry():
    postgres = SERVICES["postgres"]["environment"]
    assert re.fullmatch(required("POSTGRES_PASSWORD"), postgres["POSTGRES_PASSWORD"])
    assert "--auth-host=scram-sha-256" in postgres["POSTGRES_INITDB_ARGS"]
    assert postgres["POSTGRES_HOST_AUTH_METHOD"] == "scram-sha-256"
    redis = SERVICES["redis"]
    command = redis["command"]
    assert re.fullmatch(required("REDIS_PASSWORD"), command[command.index("--requirepass") + 1])
    assert re.fullmatch(required("REDIS_PASSWORD"), redis["environment"]["REDISCLI_AUTH"])  # the healthcheck's redis-cli
    for name in ("migrate", "app", "worker"):
        env = SERVICES[name]["environment"]
        assert re.fullmatch(
            r"postgresql://dynabench:" + required("POSTGRES_PASSWORD") + r"@postgres:5432/dynabench", env["DATABASE_URL"]
        )
        assert re.fullmatch(r"redis://:" + required("REDIS_PASSWORD") + r"@redis:6379/0", env["REDIS_URL"])
    text = (ROOT / "compose.yaml").read_text()
    for secret in ("POSTGRES_PASSWORD", "REDIS_PASSWORD", "TRITON_CONTROL_KEY", "JWT_SECRET"):
        assert not re.search(r"\$\{" + secret + r":?-", text), f"{secret} must not have a default"


def test_uploaded_archives_are_shared_by_the_app_and_the_workers():
    for name in ("app", "worker"):
        assert SERVICES[name]["environment"]["MODEL_STORE_DIR"] == "/model_store"
        assert "model_store:/model_store" in SERVICES[name]["volumes"]
        assert {"MODEL_MAX_INSTANCES", "MODEL_MAX_BATCH_SIZE", "MODEL_ALLOW_GPU"} <= set(SERVICES[name]["environment"])
    assert "model_store" in COMPOSE["volumes"]


def test_a_backup_service_keeps_the_newest_backups_in_their_own_volume_and_only_reads_the_models():
    backup = SERVICES["backup"]
    command = " ".join(backup["command"])
    assert command.startswith("dynabench backup --output-dir=/backups")
    assert re.search(r"--keep=\$\{BACKUP_KEEP:-\d+\}", command) and re.search(r"--every=\$\{BACKUP_EVERY_S:-\d+\}", command)
    assert set(backup["volumes"]) == {"model_store:/model_store:ro", "target_models:/models:ro", "backups:/backups"}
    assert "backups" in COMPOSE["volumes"] and networks_of("backup") == {"backend"}
    assert backup["environment"]["MODEL_STORE_DIR"] == "/model_store" and "JWT_SECRET" not in backup["environment"]
    assert "/backups" in (ROOT / "Dockerfile").read_text().split("chown dynabench:dynabench", 1)[1].splitlines()[0]
