/** Types of bundle-size.mjs for the unit tests (src/lib/bundleSize.test.ts). */
export const BUDGET_KB: number;
export function baseAssets(html: string): string[];
export function measure(dist: string): { files: { path: string; bytes: number; gzip: number }[]; gzip: number };
