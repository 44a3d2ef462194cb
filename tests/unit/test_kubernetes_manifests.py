"""deploy/kubernetes/ (`kubectl apply -k`) mirrors compose.yaml and keeps the researchers' Triton fenced off (docs/deploy.md,
"Kubernetes"). No cluster and no kubectl: scripts/kustomize_render.py renders the kustomization, every document is validated
strictly against the Kubernetes 1.37 schemas (kubernetes-validate), and the rules below are asserted on the rendered objects."""

from __future__ import annotations

import base64
import copy
import importlib.util
import re
import shutil
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
KDIR = ROOT / "deploy" / "kubernetes"
_spec = importlib.util.spec_from_file_location("kustomize_render", ROOT / "scripts" / "kustomize_render.py")
assert _spec and _spec.loader
kr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kr)

DOCS = kr.render(KDIR, examples=True)
SERVICES = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
APP, SANDBOX = "dynabench", "dynabench-sandbox"
# compose service -> the Kubernetes workload that replaces it (all in APP but the submissions Triton).
DEPLOYMENTS = {"app": "api", "worker": "worker", "triton": "triton", "triton-submissions": "triton-submissions"}
JOBS = {"migrate": "migrate", "models": "build-models"}
KINDS = "Namespace ServiceAccount ConfigMap Secret Service PersistentVolumeClaim Deployment Job HorizontalPodAutoscaler"
KINDS += " PodDisruptionBudget NetworkPolicy"
matches, quantity = kr.selector_matches, kr.quantity
SECRET_VARIABLES = {"JWT_SECRET", "DATABASE_URL", "REDIS_URL", "TRITON_CONTROL_KEY", "WEBHOOK_SECRET_KEY", "ENDPOINT_KEY_SECRET"}
OPTIONAL_SECRETS = {"SMTP_URL", "METRICS_TOKEN"}  # empty by default, but a password / a token when set


def objects(kind: str, namespace: str | None = None) -> list[dict]:
    return [d for d in DOCS if d["kind"] == kind and namespace in (None, d["metadata"].get("namespace"))]


def get(kind: str, namespace: str, name: str) -> dict:
    [found] = [d for d in objects(kind, namespace) if d["metadata"]["name"] == name]
    return found


def workload(service: str) -> dict:
    namespace = SANDBOX if service == "triton-submissions" else APP
    return get("Job", namespace, JOBS[service]) if service in JOBS else get("Deployment", namespace, DEPLOYMENTS[service])


def pod_labels(w: dict) -> dict:
    return w["spec"]["template"]["metadata"]["labels"]


def containers(w: dict) -> list[dict]:
    spec = w["spec"]["template"]["spec"]
    return spec["containers"] + spec.get("initContainers", [])


def namespace_labels(name: str) -> dict:
    return {**(get("Namespace", None, name)["metadata"].get("labels") or {}), "kubernetes.io/metadata.name": name}


def compose_default(text: str) -> str:
    """compose's interpolation with every variable unset: ${X:-default} -> default; a required ${X:?...} becomes the
    Kubernetes reference $(X) (a Secret's value in the container's env); $$ is compose's escaped $."""
    text = re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", text)
    return re.sub(r"\$\{(\w+):\?[^}]*\}", r"$(\1)", text).replace("$$", "$")


def available(container: dict, namespace: str) -> dict[str, dict]:
    """Each variable the container gets -> its source: {'value': ...}, {'secret': name}, {'configMap': name} (a
    secretKeyRef's key must exist in the Secret)."""
    found: dict[str, dict] = {}
    for source in container.get("envFrom", []):
        kind, ref = ("ConfigMap", source["configMapRef"]) if "configMapRef" in source else ("Secret", source["secretRef"])
        obj = get(kind, namespace, ref["name"])
        for key in obj.get("data", {}):
            found[key] = {"secret" if kind == "Secret" else "configMap": ref["name"]}
    for var in container.get("env", []):
        ref = var.get("valueFrom", {})
        if "secretKeyRef" in ref:
            assert ref["secretKeyRef"]["key"] in get("Secret", namespace, ref["secretKeyRef"]["name"])["data"], var
            found[var["name"]] = {"secret": ref["secretKeyRef"]["name"]}
        else:
            found[var["name"]] = {"value": var["value"]}
    return found


def value_of(container: dict, namespace: str, name: str) -> str:
    source = available(container, namespace)[name]
    return source["value"] if "value" in source else get("ConfigMap", namespace, source["configMap"])["data"][name]


# ------------------------------------------------------------------------------------------------- schemas and rendering


def test_every_document_validates_strictly_against_the_kubernetes_1_37_schemas():
    assert kr.validation_errors(DOCS) == []
    assert {d["kind"] for d in DOCS} == set(KINDS.split())


@pytest.mark.parametrize(
    "break_it",
    [
        lambda d: d["spec"]["template"]["spec"]["containers"][0].update(imagePullPolicyy="Always"),  # unknown field
        lambda d: d["spec"]["template"]["spec"].update(hostNetwrk=True),
        lambda d: d["metadata"].update(labelz={}),
        lambda d: d["spec"].update(replicas="two"),  # wrong type
        lambda d: d.update(kind="Deploymnt"),  # no such kind
    ],
)
def test_the_validation_rejects_a_broken_deployment(break_it):
    broken = copy.deepcopy(get("Deployment", APP, "api"))
    break_it(broken)
    assert len(kr.validation_errors([broken])) == 1
    with pytest.raises((kubernetes_validate.ValidationError, kubernetes_validate.SchemaNotFoundError)):
        kr.validate(broken)


@pytest.mark.parametrize(
    "kustomization",
    [
        "namespace: x\nresources: [a.yaml]",  # would move every object, the sandbox's included
        "images: [{name: dynabench, newTag: v2}]\nresources: [a.yaml]",
        "resources: [a.yaml]\nsecretGenerator: [{name: s, envs: [s.env]}]",  # name suffix hash not implemented
        "resources: [a.yaml, ../outside.yaml]",
        "resources: [a.yaml]\nsecretGenerator: [{name: s, envs: [s.env]}]\ngeneratorOptions: {disableNameSuffixHash: true}",
    ],
)
def test_the_renderer_refuses_what_it_does_not_render_exactly(tmp_path, kustomization):
    (tmp_path / "a.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    (tmp_path / "s.env").write_text("# a comment\nGOOD=1\nNO_VALUE_HERE\n")  # without `=`: kustomize reads its own env
    (tmp_path / "kustomization.yaml").write_text(
        f"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n{kustomization}\n"
    )
    with pytest.raises(kr.KustomizationError):
        kr.render(tmp_path)


def test_every_manifest_file_is_listed_in_the_kustomization():
    listed = {Path(entry).as_posix() for entry in kr.read_kustomization(KDIR)["resources"]}
    on_disk = {p.relative_to(KDIR).as_posix() for p in KDIR.rglob("*") if p.suffix in (".yaml", ".yml")}
    assert on_disk - {"kustomization.yaml"} == listed
    assert not [d for f in listed for d in yaml.safe_load_all((KDIR / f).read_text()) if d and d["kind"] == "Secret"], (
        "Secrets come from the secretGenerator's git-ignored env files only"
    )


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed (the other tests do not need it)")
def test_the_rendering_equals_kubectl_kustomize():
    assert kr.by_identity(kr.kubectl_kustomize(KDIR, examples=True)) == kr.by_identity(DOCS)


# ------------------------------------------------------------------------------------------------- secrets and environment


def test_the_secrets_hold_placeholders_only_and_the_real_env_files_are_git_ignored():
    ignored = (KDIR / ".gitignore").read_text().split()
    for generator in kr.read_kustomization(KDIR)["secretGenerator"]:
        for env in generator["envs"]:
            assert env in ignored and (KDIR / f"{env}.example").is_file()
    for secret in objects("Secret"):
        for key, encoded in secret["data"].items():
            value = base64.b64decode(encoded).decode()
            assert not value or "REPLACE_ME" in value, (key, value)
            rest = re.sub(r"REPLACE_ME_[A-Z_]*", "", value)
            assert not re.search(r"[A-Za-z0-9+/=_-]{16,}", rest), f"{key} looks like a real secret"
    sandbox = get("Secret", SANDBOX, "dynabench-sandbox-secrets")["data"]  # the control key only, the app's value
    assert sandbox == {"TRITON_CONTROL_KEY": get("Secret", APP, "dynabench-secrets")["data"]["TRITON_CONTROL_KEY"]}


@pytest.mark.parametrize("service", ["app", "worker", "migrate", "triton-submissions"])
def test_every_variable_compose_gives_reaches_the_workload(service):
    namespace = workload(service)["metadata"]["namespace"]
    [container] = workload(service)["spec"]["template"]["spec"]["containers"]
    got = available(container, namespace)
    for name, compose_value in SERVICES[service].get("environment", {}).items():
        assert name in got, f"{service}: {name} missing"
        if name in SECRET_VARIABLES | OPTIONAL_SECRETS:
            assert "secret" in got[name], f"{service}: {name} must come from a Secret"
        elif not name.startswith("TRITON_SUBMISSIONS_"):  # the sandbox's address differs on purpose (no gateway)
            assert value_of(container, namespace, name) == compose_default(str(compose_value)), (service, name)
    if service == "worker":
        assert "JWT_SECRET" not in got


def test_no_secret_is_written_inline_or_in_a_config_map():
    for d in objects("Deployment") + objects("Job"):
        for container in containers(d):
            for name, source in available(container, d["metadata"]["namespace"]).items():
                if name in SECRET_VARIABLES | OPTIONAL_SECRETS:
                    assert "secret" in source, (d["metadata"]["name"], name)
    for config in objects("ConfigMap"):
        assert not set(config["data"]) & (SECRET_VARIABLES | OPTIONAL_SECRETS)


def test_kubernetes_expands_every_variable_a_command_names():
    for d in objects("Deployment") + objects("Job"):
        for container in containers(d):
            names = set(available(container, d["metadata"]["namespace"]))
            for arg in container.get("command", []) + container.get("args", []):
                for ref in re.findall(r"(?<!\$)\$\((\w+)\)", arg):
                    assert ref in names, f"{d['metadata']['name']}: $({ref}) would stay literal"


def test_the_commands_are_composes():
    for service in DEPLOYMENTS | JOBS:
        [container] = workload(service)["spec"]["template"]["spec"]["containers"]
        assert container["command"] == [compose_default(str(arg)) for arg in SERVICES[service]["command"]], service
        assert "args" not in container


# ------------------------------------------------------------------------------------------------- workloads


def test_every_container_has_cpu_and_memory_requests_and_limits():
    for d in objects("Deployment") + objects("Job"):
        for container in containers(d):
            resources = container.get("resources", {})
            for resource in ("cpu", "memory"):
                request, limit = resources["requests"][resource], resources["limits"][resource]
                assert quantity(request) <= quantity(limit), (d["metadata"]["name"], resource)


def test_no_pod_gets_a_service_account_token_and_app_pods_run_as_the_image_user():
    for d in objects("Deployment") + objects("Job"):
        spec = d["spec"]["template"]["spec"]
        assert spec["automountServiceAccountToken"] is False, d["metadata"]["name"]
        assert spec["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
        assert (
            get("ServiceAccount", d["metadata"]["namespace"], spec["serviceAccountName"])["automountServiceAccountToken"] is False
        )
        if spec["containers"][0]["image"].startswith("dynabench:"):  # the app image: compose's x-hardened
            assert spec["securityContext"]["runAsUser"] == 10001 and spec["securityContext"]["runAsNonRoot"] is True
            for container in containers(d):
                assert container["securityContext"] == {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}}


def test_the_submissions_triton_is_locked_down_like_composes():
    compose = SERVICES["triton-submissions"]
    deployment = workload("triton-submissions")
    spec = deployment["spec"]["template"]["spec"]
    [container] = spec["containers"]
    assert get("Namespace", None, SANDBOX)["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    assert spec["automountServiceAccountToken"] is False and spec["enableServiceLinks"] is False
    assert not any(spec.get(key) for key in ("hostNetwork", "hostPID", "hostIPC"))
    user, group = (int(part) for part in compose["user"].split(":"))
    assert spec["securityContext"] == {
        "runAsNonRoot": True,
        "runAsUser": user,
        "runAsGroup": group,
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    assert container["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": compose["read_only"],
        "privileged": False,
        "capabilities": {"drop": compose["cap_drop"]},
    }
    resources = container["resources"]
    assert resources["requests"] == resources["limits"]
    assert quantity(resources["limits"]["cpu"]) == quantity(compose_default(compose["cpus"]))
    assert quantity(resources["limits"]["memory"]) == quantity(compose_default(compose["mem_limit"]))
    volumes = {v["name"]: v for v in spec["volumes"]}
    mounts = {m["mountPath"]: volumes[m["name"]] for m in container["volumeMounts"]}
    for tmpfs in compose["tmpfs"]:
        path, options = compose_default(tmpfs).split(":", 1)
        size = dict(o.split("=") for o in options.split(",") if "=" in o)["size"]
        assert mounts[path]["emptyDir"]["medium"] == "Memory" and quantity(mounts[path]["emptyDir"]["sizeLimit"]) == quantity(
            size
        )
    assert [m["readOnly"] for m in container["volumeMounts"] if m["mountPath"] == "/models"] == [True]
    assert "persistentVolumeClaim" not in str(spec["volumes"])  # nothing shared with the platform
    assert deployment["spec"]["replicas"] == 1 and deployment["spec"]["strategy"]["type"] == "Recreate"


def test_the_shared_volumes_are_composes():
    used = set()
    for service in ("app", "worker", "triton", "models"):
        w = workload(service)
        spec = w["spec"]["template"]["spec"]
        volumes = {v["name"]: v for v in spec["volumes"]}
        [container] = spec["containers"]
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        for entry in SERVICES[service]["volumes"]:
            volume, path, *mode = entry.split(":")
            claim = volumes[mounts[path]["name"]]["persistentVolumeClaim"]["claimName"]
            assert claim == volume.replace("_", "-"), (service, entry)
            assert mounts[path].get("readOnly", False) == (mode == ["ro"]), (service, entry)
            used.add(claim)
    assert {c["metadata"]["name"] for c in objects("PersistentVolumeClaim", APP)} == used
    assert all(c["spec"]["accessModes"] == ["ReadWriteMany"] for c in objects("PersistentVolumeClaim"))


def test_probes_and_ports_follow_compose():
    [api] = workload("app")["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in api["ports"]}
    paths = {"startupProbe": "/health/live", "readinessProbe": "/health/ready", "livenessProbe": "/health/live"}
    for probe, path in paths.items():  # server/app.py: liveness restarts nothing on a dependency's outage
        assert api[probe]["httpGet"]["path"] == path and ports[api[probe]["httpGet"]["port"]] == 8000
    [worker] = workload("worker")["spec"]["template"]["spec"]["containers"]
    assert [p["containerPort"] for p in worker["ports"]] == [int(value_of(worker, APP, "WORKER_METRICS_PORT"))]
    assert worker["livenessProbe"]["exec"]["command"] == SERVICES["worker"]["healthcheck"]["test"][1:]


def test_the_jobs_retry_a_few_times_and_clean_up():
    for name in ("migrate", "build-models"):
        job = get("Job", APP, name)
        assert 0 < job["spec"]["backoffLimit"] <= 5 and job["spec"]["ttlSecondsAfterFinished"] > 0
        assert job["spec"]["template"]["spec"]["restartPolicy"] in ("Never", "OnFailure")


# ------------------------------------------------------------------------------------------------- network, services, scaling


def pods_allowed_by(peer: dict) -> set[str]:
    """The workloads (namespace/name) a NetworkPolicy peer admits; an ipBlock admits anything, so it fails here."""
    assert "ipBlock" not in peer and "podSelector" in peer and "namespaceSelector" in peer, peer
    return {
        f"{w['metadata']['namespace']}/{w['metadata']['name']}"
        for w in objects("Deployment") + objects("Job")
        if matches(peer["namespaceSelector"], namespace_labels(w["metadata"]["namespace"]))
        and matches(peer["podSelector"], pod_labels(w))
    }


def test_the_sandbox_admits_only_the_api_and_the_workers_and_has_no_egress():
    policies = objects("NetworkPolicy", SANDBOX)
    submissions = workload("triton-submissions")
    [default_deny] = [p for p in policies if p["spec"]["podSelector"] == {}]
    assert set(default_deny["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    assert not default_deny["spec"].get("ingress") and not default_deny["spec"].get("egress")
    [own] = [p for p in policies if p["spec"]["podSelector"] and matches(p["spec"]["podSelector"], pod_labels(submissions))]
    assert set(own["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    # Policies add up: across every policy of the namespace, no egress and no other ingress peer.
    assert not any(p["spec"].get("egress") for p in policies)
    admitted = {
        pod for p in policies for rule in p["spec"].get("ingress", []) for peer in rule["from"] for pod in pods_allowed_by(peer)
    }
    assert admitted == {f"{APP}/api", f"{APP}/worker"}
    [container] = submissions["spec"]["template"]["spec"]["containers"]
    triton_ports = {p["containerPort"] for p in container["ports"]}
    for rule in own["spec"]["ingress"]:
        assert {(p["protocol"], p["port"]) for p in rule["ports"]} == {("TCP", port) for port in triton_ports}
    assert {p["metadata"]["namespace"] for p in objects("NetworkPolicy")} == {SANDBOX}


def test_services_select_existing_pods_on_existing_ports():
    for service in objects("Service"):
        namespace = service["metadata"]["namespace"]
        if service["spec"].get("type") == "ExternalName":
            continue
        selected = [
            w for w in objects("Deployment", namespace) if matches({"matchLabels": service["spec"]["selector"]}, pod_labels(w))
        ]
        assert selected, service["metadata"]["name"]
        for w in selected:
            ports = {p["name"]: p["containerPort"] for c in containers(w) for p in c.get("ports", [])}
            for port in service["spec"]["ports"]:
                assert port["targetPort"] in ports or port["targetPort"] in ports.values(), (service["metadata"]["name"], port)


def test_the_app_reaches_its_peers_by_the_names_of_these_services():
    config = get("ConfigMap", APP, "dynabench-config")["data"]
    secrets = {k: base64.b64decode(v).decode() for k, v in get("Secret", APP, "dynabench-secrets")["data"].items()}
    targets = [config["TRITON_URL"], config["TRITON_SUBMISSIONS_URL"], config["TRITON_SUBMISSIONS_STATS_URL"]]
    targets += [secrets["DATABASE_URL"], secrets["REDIS_URL"]]
    for target in targets:
        host, port = re.search(r"(?:@|//|^)([a-z0-9.-]+):(\d+)", target).groups()
        name, _, rest = host.partition(".")
        namespace = rest.removesuffix(".svc") or APP
        service = get("Service", namespace, name)
        assert int(port) in {p["port"] for p in service["spec"]["ports"]}, target
    external = {s["metadata"]["name"] for s in objects("Service", APP) if s["spec"].get("type") == "ExternalName"}
    assert external == {"postgres", "redis"}


def test_autoscalers_scale_existing_deployments_on_cpu_and_on_the_queue_depth():
    gauge = re.search(r'GaugeMetricFamily\(\s*"(\w+)"', (ROOT / "server" / "observability" / "jobs.py").read_text()).group(1)
    hpas = {h["metadata"]["name"]: h for h in objects("HorizontalPodAutoscaler")}
    for hpa in hpas.values():
        ref = hpa["spec"]["scaleTargetRef"]
        assert (ref["apiVersion"], ref["kind"]) == ("apps/v1", "Deployment")
        target = get("Deployment", hpa["metadata"]["namespace"], ref["name"])
        assert "replicas" not in target["spec"], "the HPA owns the count; a fixed one would reset it on every apply"
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    assert {h["spec"]["scaleTargetRef"]["name"] for h in hpas.values()} == {"api", "worker"}
    [api_metric] = hpas["api"]["spec"]["metrics"]
    assert api_metric["type"] == "Resource" and api_metric["resource"]["name"] == "cpu"
    assert api_metric["resource"]["target"]["type"] == "Utilization"
    [worker_metric] = hpas["worker"]["spec"]["metrics"]
    assert worker_metric["type"] == "External" and worker_metric["external"]["metric"]["name"] == gauge
    assert worker_metric["external"]["metric"]["selector"] == {"matchLabels": {"state": "ready"}}
    # At the maxima, the pools' connections fit PostgreSQL's default max_connections (docs/deploy.md, "Scaling").
    [api], [worker] = (get("Deployment", APP, name)["spec"]["template"]["spec"]["containers"] for name in ("api", "worker"))
    pools = {name: int(value_of(c, APP, "DB_POOL_MAX")) for name, c in (("api", api), ("worker", worker))}
    pools["api"] *= int(value_of(api, APP, "WEB_CONCURRENCY"))
    assert sum(hpas[name]["spec"]["maxReplicas"] * size for name, size in pools.items()) < 100


def test_disruption_budgets_cover_the_api_the_workers_and_the_target_triton_without_blocking_drains():
    covered = set()
    for pdb in objects("PodDisruptionBudget"):
        namespace = pdb["metadata"]["namespace"]
        [deployment] = [d for d in objects("Deployment", namespace) if matches(pdb["spec"]["selector"], pod_labels(d))]
        name = deployment["metadata"]["name"]
        hpa = [h for h in objects("HorizontalPodAutoscaler", namespace) if h["spec"]["scaleTargetRef"]["name"] == name]
        fewest = hpa[0]["spec"]["minReplicas"] if hpa else deployment["spec"]["replicas"]
        if "minAvailable" in pdb["spec"]:
            assert pdb["spec"]["minAvailable"] < fewest, name
        else:
            assert pdb["spec"]["maxUnavailable"] >= 1, name
        covered.add(name)
    assert covered == {"api", "worker", "triton"}
