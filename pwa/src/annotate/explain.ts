/**
 * "Which words mattered": the per-word attributions of explainPrediction laid over the example's text. The server
 * counts offsets in code points (Python); the text is split by code points here too. Pure functions.
 */
import type { ExplainPredictionQuery } from "../api/generated/types";
import { formatPercent } from "../i18n/format";

/** A piece of the text and how much the model's support for its answer falls without it. */
export type TokenAttribution = ExplainPredictionQuery["explainPrediction"]["tokens"][number];

export interface Segment {
  text: string;
  token: TokenAttribution | null; // null: text between pieces (spaces)
  strength: number; // |attribution| relative to the strongest piece, 0..1
}

function strongest(tokens: TokenAttribution[]): number {
  return tokens.reduce((max, t) => Math.max(max, Math.abs(t.attribution)), 0);
}

/** The field's text cut into pieces (with their attribution) and the text between them. */
export function segments(text: string, tokens: TokenAttribution[]): Segment[] {
  const points = Array.from(text);
  const max = strongest(tokens);
  const sorted = [...tokens].sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let at = 0;
  for (const token of sorted) {
    const start = Math.max(at, Math.min(token.start, points.length));
    const end = Math.max(start, Math.min(token.end, points.length));
    if (start > at) out.push({ text: points.slice(at, start).join(""), token: null, strength: 0 });
    if (end > start) {
      out.push({ text: points.slice(start, end).join(""), token, strength: max > 0 ? Math.abs(token.attribution) / max : 0 });
    }
    at = end;
  }
  if (at < points.length) out.push({ text: points.slice(at).join(""), token: null, strength: 0 });
  return out;
}

/** The pieces that mattered most (by |attribution|, ties in reading order), leaving out those that did nothing. */
export function topTokens(tokens: TokenAttribution[], n = 5, floor = 0.005): TokenAttribution[] {
  return tokens
    .map((token, i) => ({ token, i }))
    .filter(({ token }) => Math.abs(token.attribution) >= floor)
    .sort((a, b) => Math.abs(b.token.attribution) - Math.abs(a.token.attribution) || a.i - b.i)
    .slice(0, n)
    .map(({ token }) => token);
}

/** An attribution as signed percentage points of the model's support: "+12.5%", "−3.0%". */
export function signedPercent(attribution: number): string {
  const value = formatPercent(Math.abs(attribution));
  return attribution < 0 ? `−${value}` : `+${value}`;
}
