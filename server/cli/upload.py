"""`dynabench model upload DIR|ARCHIVE`: send a Triton model repository to the API with the Python client
(`dynabench_client.Client.submit_model`: a directory is zipped first; progress bars while zipping and uploading)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

# A few quick retries of a refused connection (the SDK retries an upload only when it certainly did not run).
CLI_RETRY_ATTEMPTS = 3


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="a model repository directory (config.pbtxt + version dirs) or an archive")
    parser.add_argument("--task", required=True, help="task code, e.g. sentiment")
    parser.add_argument("--name", required=True, help="the model's display name")
    parser.add_argument("--api-url", default=os.environ.get("DYNABENCH_API_URL", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--token", default=os.environ.get("DYNABENCH_TOKEN"), help="API token with the 'models' scope (or $DYNABENCH_TOKEN)"
    )
    parser.add_argument("--description", default=None)
    parser.add_argument("--license", default=None)
    parser.add_argument("--source-url", default=None)
    parser.add_argument("--anonymous", action="store_true")


def run(args: argparse.Namespace) -> int:
    from dynabench_client import ApiError, Client, DynabenchError, RetryPolicy, TransportError

    if not args.token:
        print("error: pass --token or set DYNABENCH_TOKEN (create one with the createApiToken mutation)")
        return 2
    if not args.path.exists():
        print(f"error: {args.path} does not exist")
        return 2
    card = {
        k: v for k, v in {"description": args.description, "license": args.license, "source_url": args.source_url}.items() if v
    }
    try:
        client = Client(args.api_url, args.token, retry=RetryPolicy(max_retries=CLI_RETRY_ATTEMPTS))
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    try:
        with client:
            model = client.submit_model(args.path, args.task, args.name, card or None, anonymous=args.anonymous)
    except ApiError as exc:
        print(f"refused ({exc.code}): {exc.message}")
        return 1
    except ValueError as exc:  # neither a model directory nor a zip/tar.gz archive (the API would refuse it: exit 1)
        print(f"error: {exc}")
        return 1
    except TransportError as exc:
        if exc.status_code is not None:
            print(f"error: HTTP {exc.status_code}: {exc}")
        else:
            print(f"error: the API at {args.api_url} could not be reached: {exc}")
        return 1
    except DynabenchError as exc:  # a refused query (GraphQLError: bad credentials, limits)
        print(f"error: {exc}")
        return 1
    print(
        f"uploaded: model {model.id} is {model.status}; it deploys and is evaluated next "
        "(follow it with dynabench_client's wait_for_evaluation, the modelUpdated subscription or `model { status statusLog }`)."
    )
    return 0
