/**
 * The MER / vMER per round chart as pure geometry (unit-tested in chart.test.ts); OwnerPage draws
 * it as plain SVG. Rates are 0..1; a round without examples (null) leaves a gap in its line.
 */
export interface RoundRates {
  number: number;
  mer: number | null;
  vmer: number | null;
}

export interface ChartBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const CHART: ChartBox = { width: 480, height: 240, left: 44, right: 16, top: 16, bottom: 36 };

export interface Point {
  x: number;
  y: number;
  value: number;
  round: number;
}

/** x of the i-th of n rounds (spread evenly, one round in the middle). */
export function xOf(i: number, n: number, box: ChartBox = CHART): number {
  const inner = box.width - box.left - box.right;
  return n <= 1 ? box.left + inner / 2 : box.left + (inner * i) / (n - 1);
}

/** y of a rate in [0, 1] (clamped), 0 at the bottom. */
export function yOf(rate: number, box: ChartBox = CHART): number {
  const inner = box.height - box.top - box.bottom;
  return box.top + inner * (1 - Math.min(1, Math.max(0, rate)));
}

export function points(rounds: RoundRates[], key: "mer" | "vmer", box: ChartBox = CHART): Point[] {
  const sorted = [...rounds].sort((a, b) => a.number - b.number);
  const result: Point[] = [];
  sorted.forEach((round, i) => {
    const value = round[key];
    if (value === null || value === undefined || Number.isNaN(value)) return;
    result.push({ x: xOf(i, sorted.length, box), y: yOf(value, box), value, round: round.number });
  });
  return result;
}

/** An SVG path through the points, starting a new segment after a gap (a round without a rate). */
export function pathOf(rounds: RoundRates[], key: "mer" | "vmer", box: ChartBox = CHART): string {
  const sorted = [...rounds].sort((a, b) => a.number - b.number);
  let path = "";
  let pen = false;
  sorted.forEach((round, i) => {
    const value = round[key];
    if (value === null || value === undefined || Number.isNaN(value)) {
      pen = false;
      return;
    }
    const x = xOf(i, sorted.length, box).toFixed(1);
    const y = yOf(value, box).toFixed(1);
    path += `${pen ? "L" : "M"}${x} ${y} `;
    pen = true;
  });
  return path.trim();
}
