/** Upload progress as the page shows it: a whole percentage and byte counts in the reader's locale. */

export interface Progress {
  sent: number;
  total: number; // 0 while unknown
}

/** 0–100, whole; 0 while the total is unknown. */
export function percent({ sent, total }: Progress): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((sent / total) * 100)));
}

/** Every byte has left the browser: the server is checking the archive now. */
export function sentAll({ sent, total }: Progress): boolean {
  return total > 0 && sent >= total;
}

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;

/** "812 byte", "3.4 MB", "1.2 GB" (decimal units, one decimal above bytes) in `locale` (the reader's by default). */
export function formatBytes(bytes: number, locale?: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  return new Intl.NumberFormat(locale, { style: "unit", unit: UNITS[unit], unitDisplay: "short", maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}
