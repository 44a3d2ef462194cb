/**
 * The battle leaderboard's pure parts: one scale shared by every model's 95% interval (so bars compare), where a
 * rating falls on it (in % of the track, for CSS `inset-inline-start` / `inline-size`: RTL mirrors it), and the
 * numbers as text (the drawing is decorative; the text carries the same numbers).
 */
import { formatNumber, formatPercent } from "../../i18n/format";

export interface BoardModel {
  name: string;
  rating: number;
  lower: number;
  upper: number;
  rank: number;
  stability: number;
  topShare: number;
  battles: number;
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
}

export interface PositionShare {
  sides: number;
  label: string;
  picked: number;
  decisive: number;
  share: number;
  lower: number;
  upper: number;
  chance: number;
}

export interface Board {
  models: BoardModel[];
  winRate: (number | null)[][];
  votes: number;
  rounds: number;
  seed: number;
  ballots: number;
  countedBallots: number;
  flaggedVoters: number;
  pausedVoters: number;
  repeats: number;
  positionBias: PositionShare[];
}

/** Whether a position's 95% interval leaves out chance (1 / sides): the votes lean toward it ("above") or away
 * from it ("below"); "none" when chance is inside the interval. */
export function leaning(share: Pick<PositionShare, "lower" | "upper" | "chance">): "above" | "below" | "none" {
  if (share.lower > share.chance) return "above";
  if (share.upper < share.chance) return "below";
  return "none";
}

/** The position shares grouped by number of sides (ascending), positions in order. */
export function biasGroups(shares: PositionShare[]): { sides: number; shares: PositionShare[] }[] {
  const groups = new Map<number, PositionShare[]>();
  for (const item of [...shares].sort((a, b) => a.sides - b.sides || a.label.localeCompare(b.label))) {
    groups.set(item.sides, [...(groups.get(item.sides) ?? []), item]);
  }
  return [...groups].map(([sides, items]) => ({ sides, shares: items }));
}

export interface Scale {
  min: number;
  max: number;
}

/** Round numbers around every interval, with a margin: [lowest lower, highest upper] widened by 5% of the span
 * (at least 10 points each way) and snapped outward to tens. A board with no model gets 900–1100. */
export function scaleOf(models: Pick<BoardModel, "lower" | "upper">[]): Scale {
  const values = models.flatMap((m) => [m.lower, m.upper]).filter(Number.isFinite);
  if (!values.length) return { min: 900, max: 1100 };
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max(10, (high - low) * 0.05);
  return { min: Math.floor((low - pad) / 10) * 10, max: Math.ceil((high + pad) / 10) * 10 };
}

/** Where `value` falls on the scale, in % of the track (clamped to 0–100). */
export function place(value: number, scale: Scale): number {
  const span = scale.max - scale.min;
  if (!(span > 0) || !Number.isFinite(value)) return 50;
  return Math.min(100, Math.max(0, ((value - scale.min) / span) * 100));
}

/** A model's bar: where its interval starts and how wide it is, and where its rating's mark sits (all in %). */
export function barOf(model: Pick<BoardModel, "rating" | "lower" | "upper">, scale: Scale): { start: number; size: number; point: number } {
  const start = place(Math.min(model.lower, model.upper), scale);
  const end = place(Math.max(model.lower, model.upper), scale);
  return { start, size: Math.max(0, end - start), point: place(model.rating, scale) };
}

/** A rating as shown: a whole number (they are on a 1000-centred scale; decimals would be noise). */
export function ratingNumber(value: number): string {
  return formatNumber(Math.round(value));
}

/** A share (0–1) as a percentage with no decimals beyond what a bootstrap of 1,000 rounds supports. */
export function share(value: number): string {
  return formatPercent(value, 0);
}

/** A win-rate cell: the share, or null where the two never had a decisive battle (and on the diagonal). */
export function winRateCell(value: number | null | undefined): string | null {
  return typeof value === "number" && Number.isFinite(value) ? formatPercent(value, 0) : null;
}
