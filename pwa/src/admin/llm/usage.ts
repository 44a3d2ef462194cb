/** The usage table's numbers for people: tokens as whole numbers, the estimated cost with up to four decimals. */
import { formatNumber } from "../../i18n/format";
import type { UsageLine } from "./documents";

export const formatTokens = (n: number) => formatNumber(Math.round(n), { maximumFractionDigits: 0 });
export const formatCost = (cost: number) => formatNumber(cost, { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** Lines newest day first, then by endpoint and task (the server's order, kept when lines are merged). */
export function sortLines(lines: UsageLine[]): UsageLine[] {
  return [...lines].sort(
    (a, b) => b.day.localeCompare(a.day) || a.endpoint.localeCompare(b.endpoint) || (a.taskCode ?? "").localeCompare(b.taskCode ?? ""),
  );
}
