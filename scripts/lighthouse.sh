#!/usr/bin/env bash
# Lighthouse scores of the built PWA served by a running API:
#   scripts/lighthouse.sh [URL]      (default http://127.0.0.1:8000/, e.g. after `.venv/bin/dynabench up`)
# Lighthouse 12 for performance / accessibility / best practices / SEO, Lighthouse 11 for the PWA
# category (12 dropped it). Both are installed into .dynabench-lighthouse/ on first use; Debian's chromium.
# The HTML reports and a scores table are written to docs/lighthouse/ (the README's table is copied from it).
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-http://127.0.0.1:8000/}
tools=.dynabench-lighthouse
flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
for version in 12 11; do
  if [[ ! -x $tools/$version/node_modules/.bin/lighthouse ]]; then
    mkdir -p "$tools/$version"
    (cd "$tools/$version" && echo '{"private": true}' > package.json && npm install --no-audit --no-fund --loglevel=error "lighthouse@$version")
  fi
done
$tools/12/node_modules/.bin/lighthouse "$url" --quiet --output=json --output=html --output-path="$tools/report-12" \
  --only-categories=performance,accessibility,best-practices,seo --chrome-flags="$flags"
$tools/11/node_modules/.bin/lighthouse "$url" --quiet --output=json --output=html --output-path="$tools/report-11" \
  --only-categories=pwa --chrome-flags="$flags"
mkdir -p docs/lighthouse
cp "$tools/report-12.report.html" docs/lighthouse/lighthouse-12.html
cp "$tools/report-11.report.html" docs/lighthouse/lighthouse-11-pwa.html
python3 - "$tools" "$url" <<'EOF'
import json, sys
scores, meta = {}, []
for report in ("report-12.report.json", "report-11.report.json"):
    data = json.load(open(f"{sys.argv[1]}/{report}"))
    scores.update({category["title"]: round(category["score"] * 100) for category in data["categories"].values()})
    meta.append(f"Lighthouse {data['lighthouseVersion']}, {data['fetchTime']}, {data['configSettings']['formFactor']}")
table = "| " + " | ".join(scores) + " |\n|" + "---|" * len(scores) + "\n| " + " | ".join(map(str, scores.values())) + " |\n"
with open("docs/lighthouse/scores.md", "w") as fh:
    fh.write(f"# Lighthouse scores of {sys.argv[2]}\n\n" + "\n".join(f"- {m}" for m in meta) + "\n\n" + table)
print(table)
sys.exit(0 if all(score >= 95 for score in scores.values()) else 1)
EOF
