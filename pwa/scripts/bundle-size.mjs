#!/usr/bin/env node
/**
 * The base bundle's budget (issue #29): every script and stylesheet dist/index.html references (src/href,
 * modulepreload included) is what a first visit downloads before the first paint. Their gzip -9 sizes are summed
 * and the build fails when the sum passes the budget. Run after `vite build` (`npm run build` does).
 *   node scripts/bundle-size.mjs [dist] [--budget=KB] [--json]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

export const BUDGET_KB = 60; // kilobytes of 1000 bytes, as the issue counts them

/** The local .js/.css files an index.html references through src= or href= (no duplicates, in order). */
export function baseAssets(html) {
  const found = [];
  for (const match of html.matchAll(/\b(?:src|href)\s*=\s*"([^"]+)"/g)) {
    const url = match[1];
    if (!/\.(?:js|css)(?:[?#].*)?$/.test(url) || /^[a-z]+:\/\//i.test(url)) continue;
    const path = url.replace(/[?#].*$/, "").replace(/^\//, "");
    if (!found.includes(path)) found.push(path);
  }
  return found;
}

export function measure(dist) {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const files = baseAssets(html).map((path) => {
    const bytes = readFileSync(join(dist, path));
    return { path, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
}

function main(argv) {
  const dist = resolve(argv.find((a) => !a.startsWith("--")) ?? "dist");
  const budgetArg = argv.find((a) => a.startsWith("--budget="));
  const budget = budgetArg ? Number(budgetArg.slice("--budget=".length)) : BUDGET_KB;
  const result = measure(dist);
  const kb = (n) => (n / 1000).toFixed(1);
  if (argv.includes("--json")) {
    console.log(JSON.stringify({ ...result, budgetKb: budget }));
  } else {
    for (const f of [...result.files].sort((a, b) => b.gzip - a.gzip)) {
      console.log(`${kb(f.gzip).padStart(7)} KB gzip  ${f.path}`);
    }
    console.log(`base bundle: ${kb(result.gzip)} KB gzip (budget ${budget} KB) in ${result.files.length} files`);
  }
  if (!result.files.length) {
    console.error("bundle-size: dist/index.html references no script or stylesheet: is the build broken?");
    return 1;
  }
  if (result.gzip > budget * 1000) {
    console.error(`bundle-size: the base bundle is ${kb(result.gzip)} KB gzip, over the ${budget} KB budget: load what the first paint does not need on demand (pwa/src/lib/lazy.tsx)`);
    return 1;
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
