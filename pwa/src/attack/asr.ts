/**
 * A generative round's attack success (GraphQL `Round.attackSuccess`) as the tables show it: one table per target
 * model, one per attack category, each rate formatted in the UI locale ("—" before the first conversation). Pure.
 */
import { formatNumber } from "../i18n/format";
import { formatRate } from "../tasks/config";

export interface AttackSuccessRow {
  grouping: string; // "target" | "category"
  key: string;
  collected: number;
  fooled: number;
  validatedFooled: number;
  asr: number | null;
  validatedAsr: number | null;
}

/** One row as shown: the key (for tests and React keys), its display name and the formatted numbers. */
export interface AttackSuccessLine {
  key: string;
  name: string;
  collected: string;
  fooled: string;
  asr: string;
  validatedAsr: string;
}

export interface AttackSuccessTables {
  targets: AttackSuccessLine[];
  categories: AttackSuccessLine[];
}

/** A row's numbers in the UI locale; a null rate (no conversation yet) reads "—". */
export function attackLine(row: AttackSuccessRow, name: string): AttackSuccessLine {
  return {
    key: row.key,
    name,
    collected: formatNumber(row.collected),
    fooled: formatNumber(row.fooled),
    asr: formatRate(row.asr),
    validatedAsr: formatRate(row.validatedAsr),
  };
}

/**
 * The rows split by grouping, each list sorted by its display name; target models keep their names, categories
 * (identifiers) go through `categoryName` (the task's translations, else humanized). Unknown groupings are left out.
 */
export function attackTables(rows: readonly AttackSuccessRow[], categoryName: (key: string) => string): AttackSuccessTables {
  const byName = (a: AttackSuccessLine, b: AttackSuccessLine) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key);
  return {
    targets: rows.filter((r) => r.grouping === "target").map((r) => attackLine(r, r.key)).sort(byName),
    categories: rows.filter((r) => r.grouping === "category").map((r) => attackLine(r, categoryName(r.key))).sort(byName),
  };
}
