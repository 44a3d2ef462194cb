"""``GET /offline-models/<name>/<version>/<file>``: the files of a built-in classifier's offline export.

Public (the built-in models are trained on public data and their scores are public), immutable per version
(a retrained model is a new version): long cache headers, ETag = the file's sha256, 304 on If-None-Match.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.response import File

from server.offline.files import URL_PREFIX, served_file

CACHE_CONTROL = "public, max-age=31536000, immutable"
MEDIA_TYPES = {".onnx": "application/octet-stream", ".json": "application/json"}


@get(URL_PREFIX + "/{name:str}/{version:str}/{file:str}", include_in_schema=False)
async def offline_model_file(name: str, version: str, file: str, request: Request, state: State) -> Response | File:
    repository = state.services.settings.target_model_repository
    found = served_file(Path(repository), name, version, file) if repository else None
    if found is None:
        return Response({"error": "No such offline model file."}, status_code=404)
    path, sha256 = found
    etag = f'"{sha256}"'
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(b"", status_code=304, headers=headers)
    media_type = MEDIA_TYPES.get(path.suffix, "application/octet-stream")
    return File(path=path, media_type=media_type, headers=headers, content_disposition_type="inline")
