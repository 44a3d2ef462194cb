/** The base-bundle budget's measure (pwa/scripts/bundle-size.mjs, run by `npm run build`). */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BUDGET_KB, baseAssets, measure } from "../../scripts/bundle-size.mjs";

const HTML = `<!doctype html><html><head>
<link rel="icon" type="image/png" href="/icons/icon-192.png" />
<script type="module" crossorigin src="/assets/index-a1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">
<link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">
<link rel="stylesheet" crossorigin href="/assets/index-c3.css">
<script src="https://cdn.example.com/x.js"></script>
<link rel="manifest" href="/manifest.webmanifest"></head><body></body></html>`;

describe("baseAssets", () => {
  it("lists every local script, modulepreload and stylesheet once, and nothing else", () => {
    expect(baseAssets(HTML)).toEqual(["assets/index-a1.js", "assets/runtime-b2.js", "assets/index-c3.css"]);
  });
});

describe("measure", () => {
  it("sums the gzip -9 sizes of what index.html references, ignoring the other chunks", () => {
    const dist = mkdtempSync(join(tmpdir(), "bundle-size-"));
    mkdirSync(join(dist, "assets"));
    const bodies: Record<string, string> = {
      "assets/index-a1.js": "export const a = 1;".repeat(200),
      "assets/runtime-b2.js": "export function f() { return 2; }\n".repeat(50),
      "assets/index-c3.css": "body { color: red }\n".repeat(30),
      "assets/lazy-d4.js": "never counted".repeat(1000),
    };
    for (const [path, body] of Object.entries(bodies)) writeFileSync(join(dist, path), body);
    writeFileSync(join(dist, "index.html"), HTML);
    const result = measure(dist);
    expect(result.files.map((f) => f.path)).toEqual(["assets/index-a1.js", "assets/runtime-b2.js", "assets/index-c3.css"]);
    const expected = ["assets/index-a1.js", "assets/runtime-b2.js", "assets/index-c3.css"]
      .reduce((sum, path) => sum + gzipSync(Buffer.from(bodies[path]), { level: 9 }).length, 0);
    expect(result.gzip).toBe(expected);
  });

  it("has the issue's budget", () => {
    expect(BUDGET_KB).toBe(60);
  });
});
