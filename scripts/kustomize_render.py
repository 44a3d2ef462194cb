"""Renders deploy/kubernetes/ the way `kubectl kustomize` does, without kubectl or a cluster, and validates every
document strictly against Kubernetes' own schemas, offline (kubernetes-validate; unknown fields are errors).

Only the kustomize features that directory uses are implemented (plain resource files, `secretGenerator` from env
files, `generatorOptions.disableNameSuffixHash`); any other key is refused, so a rendering that succeeds is exact.
tests/unit/test_kubernetes_manifests.py builds on it.

    .venv/bin/python scripts/kustomize_render.py [DIR] [--examples] [--compare-kubectl]

prints the rendered YAML (exit 0) or the validation errors (exit 1). --examples reads each secret env file's
committed `.example` instead of the real, git-ignored file; --compare-kubectl also renders with `kubectl kustomize`
(when installed) and fails if the two differ.
"""

from __future__ import annotations

import argparse
import base64
import copy
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = ROOT / "deploy" / "kubernetes"
KUBERNETES_VERSION = "1.37"
SUPPORTED_KEYS = {"apiVersion", "kind", "resources", "secretGenerator", "generatorOptions"}
GENERATOR_KEYS = {"name", "namespace", "envs"}
# Kubernetes' IsEnvVarName, which kustomize applies to every key of an env file.
ENV_VAR_NAME = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")
# Quantity suffixes (Kubernetes'; `g` is compose's gigabyte, 2**30, for comparing with compose.yaml).
UNITS = {"m": 1e-3, "": 1, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "g": 2**30}


class KustomizationError(ValueError):
    """The kustomization uses something this renderer does not implement, or is malformed."""


def read_kustomization(directory: Path) -> dict[str, Any]:
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text(encoding="utf-8"))
    if not isinstance(kustomization, dict):
        raise KustomizationError("kustomization.yaml is not a mapping")
    unsupported = set(kustomization) - SUPPORTED_KEYS
    if unsupported:
        raise KustomizationError(f"not implemented by this renderer: {sorted(unsupported)}")
    if kustomization.get("apiVersion") != "kustomize.config.k8s.io/v1beta1" or kustomization.get("kind") != "Kustomization":
        raise KustomizationError("expected apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization")
    if kustomization.get("secretGenerator") and kustomization.get("generatorOptions") != {"disableNameSuffixHash": True}:
        # kustomize would add a content hash to each generated name and rewrite every reference to it.
        raise KustomizationError("generatorOptions must be exactly {disableNameSuffixHash: true}")
    return kustomization


def resource_files(directory: Path, kustomization: dict[str, Any]) -> list[Path]:
    files = []
    for entry in kustomization.get("resources") or []:
        path = (directory / entry).resolve()
        if "://" in entry or not path.is_relative_to(directory.resolve()) or not path.is_file():
            raise KustomizationError(f"resources: {entry!r} is not a file inside {directory}")
        files.append(path)
    return files


def parse_env_file(path: Path) -> dict[str, str]:
    """kustomize's env-file rules: blank lines and `#` lines skipped, leading spaces trimmed, the value is everything
    after the first `=`, taken literally (quotes included). A line without `=` would read kustomize's own environment:
    refused, to keep the rendering reproducible."""
    pairs: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        line = raw.lstrip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not ENV_VAR_NAME.fullmatch(key):
            raise KustomizationError(f"{path.name}:{number}: expected KEY=VALUE")
        if key in pairs:
            raise KustomizationError(f"{path.name}:{number}: {key} given twice")
        pairs[key] = value
    return pairs


def generated_secret(directory: Path, generator: dict[str, Any], examples: bool) -> dict[str, Any]:
    unknown = set(generator) - GENERATOR_KEYS
    if unknown or "name" not in generator or not generator.get("envs"):
        raise KustomizationError(
            f"secretGenerator {generator.get('name')!r}: needs name and envs, and nothing but {sorted(GENERATOR_KEYS)}"
        )
    data: dict[str, str] = {}
    for env in generator["envs"]:
        path = directory / (f"{env}.example" if examples else env)
        if not path.is_file():
            raise KustomizationError(f"{path} is missing (copy {env}.example and replace its placeholders, or pass --examples)")
        for key, value in parse_env_file(path).items():
            if key in data:
                raise KustomizationError(f"secretGenerator {generator['name']}: {key} given twice")
            data[key] = base64.b64encode(value.encode()).decode()
    metadata = {"name": generator["name"]}
    if "namespace" in generator:
        metadata["namespace"] = generator["namespace"]
    return {"apiVersion": "v1", "kind": "Secret", "metadata": metadata, "type": "Opaque", "data": data}


def identity(document: dict[str, Any]) -> tuple[str, str, str]:
    metadata = document.get("metadata") or {}
    return document.get("kind", ""), metadata.get("namespace", ""), metadata.get("name", "")


def render(directory: Path = DEFAULT_DIR, *, examples: bool = False) -> list[dict[str, Any]]:
    """Every document `kubectl kustomize DIRECTORY` would print (in file order, generated Secrets last)."""
    kustomization = read_kustomization(directory)
    documents: list[dict[str, Any]] = []
    for path in resource_files(directory, kustomization):
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if document is None:
                continue
            if not isinstance(document, dict) or not {"apiVersion", "kind", "metadata"} <= set(document):
                raise KustomizationError(f"{path.name}: a document without apiVersion, kind and metadata")
            documents.append(document)
    documents += [generated_secret(directory, g, examples) for g in kustomization.get("secretGenerator") or []]
    seen: set[tuple[str, str, str]] = set()
    for document in documents:
        if identity(document) in seen:
            raise KustomizationError(f"defined twice: {identity(document)}")
        seen.add(identity(document))
    return documents


def validate(document: dict[str, Any]) -> None:
    """Strict validation against the Kubernetes 1.37 schemas bundled with kubernetes-validate. Raises
    kubernetes_validate.ValidationError (a wrong or unknown field) or SchemaNotFoundError (an unknown kind)."""
    import kubernetes_validate

    kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def validation_errors(documents: list[dict[str, Any]]) -> list[str]:
    import kubernetes_validate

    errors = []
    for document in documents:
        where = "/".join(part for part in identity(document) if part)
        try:
            validate(document)
        except kubernetes_validate.ValidationError as exc:
            errors.append(f"{where}: {'.'.join(str(part) for part in exc.path) or '(top)'}: {exc.message}")
        except kubernetes_validate.SchemaNotFoundError as exc:
            errors.append(f"{where}: {exc.message}")
    return errors


def quantity(value: str | int) -> float:
    """A resource quantity ("500m", "4Gi", 2) as a number."""
    found = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(value))
    if not found or found.group(2) not in UNITS:
        raise ValueError(f"not a quantity: {value!r}")
    return float(found.group(1)) * UNITS[found.group(2)]


def selector_matches(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """A label selector (matchLabels + matchExpressions) against a set of labels; an empty selector matches all."""
    if any(labels.get(key) != value for key, value in (selector.get("matchLabels") or {}).items()):
        return False
    for expression in selector.get("matchExpressions") or []:
        key, values = expression["key"], expression.get("values") or []
        holds = {
            "In": key in labels and labels[key] in values,
            "NotIn": labels.get(key) not in values,
            "Exists": key in labels,
            "DoesNotExist": key not in labels,
        }[expression["operator"]]
        if not holds:
            return False
    return True


def by_identity(documents: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Documents keyed by (kind, namespace, name), Secrets' data decoded: comparable whatever the order or the
    base64 line wrapping."""
    keyed = {}
    for document in documents:
        document = copy.deepcopy(document)
        if document["kind"] == "Secret":
            document["data"] = {k: base64.b64decode(v).decode() for k, v in (document.get("data") or {}).items()}
        keyed[identity(document)] = document
    return keyed


def kubectl_kustomize(directory: Path = DEFAULT_DIR, *, examples: bool = False) -> list[dict[str, Any]]:
    """What `kubectl kustomize` renders (offline, no cluster); with examples, from a copy where each secret env file
    is its committed `.example`."""
    with tempfile.TemporaryDirectory() as scratch:
        if examples:
            copied = Path(scratch) / directory.name
            shutil.copytree(directory, copied, ignore=lambda folder, names: [n for n in names if n.endswith(".env")])
            for example in copied.glob("*.env.example"):
                shutil.copy(example, copied / example.name.removesuffix(".example"))
            directory = copied
        done = subprocess.run(["kubectl", "kustomize", str(directory)], capture_output=True, text=True, timeout=120, check=True)
    return [document for document in yaml.safe_load_all(done.stdout) if document]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--examples", action="store_true", help="read the committed *.env.example files")
    parser.add_argument("--compare-kubectl", action="store_true", help="also check that `kubectl kustomize` renders the same")
    args = parser.parse_args(argv)
    try:
        documents = render(args.directory, examples=args.examples)
    except KustomizationError as exc:
        print(exc, file=sys.stderr)
        return 1
    errors = validation_errors(documents)
    if args.compare_kubectl and by_identity(kubectl_kustomize(args.directory, examples=args.examples)) != by_identity(documents):
        errors.append("kubectl kustomize renders something else than this renderer")
    for error in errors:
        print(error, file=sys.stderr)
    if not errors:
        print(yaml.safe_dump_all(documents, sort_keys=False), end="")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
