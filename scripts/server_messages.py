"""Add the server's new translatable messages to the catalogs (server/locales/<locale>/<area>.po) and drop the
ones no longer used, keeping every existing translation. Translators then fill the empty entries.

    .venv/bin/python scripts/server_messages.py AREA PATH...   e.g.  annotation server/annotation server/graphql/annotation
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from server.core.i18n import DEFAULT_LOCALE, LOCALES, LOCALES_DIR
from server.core.i18n_sources import Message, NonLiteral, scan


def main(area: str, paths: list[Path]) -> int:
    found = list(scan(paths))
    for item in found:
        if isinstance(item, NonLiteral):
            print(f"{item.where}: the template must be a literal string", file=sys.stderr)
    messages = {item.id: item for item in found if isinstance(item, Message)}
    for locale in LOCALES:
        if locale == DEFAULT_LOCALE:
            continue
        path = LOCALES_DIR / locale / f"{area}.po"
        old = Catalog(locale=locale)
        if path.exists():
            with path.open("rb") as po:
                old = read_po(po, locale=locale)
        catalog = Catalog(
            locale=locale,
            project="dynabench",
            domain=area,
            header_comment=f"# The server's messages in {locale}, area {area!r} (scripts/server_messages.py).",
            creation_date=old.creation_date,  # stable: no churn in the file when nothing changed
            revision_date=old.revision_date,
            fuzzy=False,
        )
        for message in messages.values():
            msgid = (message.id, message.plural) if message.plural else message.id
            previous = old.get(message.id)
            catalog.add(
                msgid,
                previous.string if previous else ("",) * catalog.num_plurals if message.plural else "",
                locations=[(message.where.rsplit(":", 1)[0], int(message.where.rsplit(":", 1)[1]))],
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=120, sort_output=True, include_lineno=False)
        missing = sum(1 for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string]))
        print(f"{path}: {len(messages)} messages, {missing} to translate")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], [Path(p) for p in sys.argv[2:]]))
