/**
 * Plurals (CLDR rules) and number/date formats for the active UI locale, through Lingui's memoized Intl formatters.
 * Catalogs call `pluralFor(locale)` with their own locale; components call the format helpers.
 */
import { formats } from "@lingui/core";
import { currentLocale } from "./runtime";

export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";
/** The forms of one message: `other` always; the rest as the language needs (Arabic uses all six). "#" is the number. */
export type PluralForms = { other: string } & Partial<Record<PluralCategory, string>>;

export function pluralFor(locale: string) {
  return (n: number, forms: PluralForms): string =>
    (formats.plural(locale, false, n, forms as never) as string).replace(/#/g, formats.number(locale, n));
}

/** The form for n in the active locale. */
export function plural(n: number, forms: PluralForms): string {
  return pluralFor(currentLocale())(n, forms);
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return formats.number(currentLocale(), value, options);
}

export function formatPercent(fraction: number, digits = 1): string {
  return formatNumber(fraction, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A date (ISO string or Date) with time, e.g. "24 nov. 2026, 18:20" in French; the input unchanged if it is not a date. */
export function formatDateTime(value: string | Date, options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" }): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return formats.date(currentLocale(), date, options);
}

export function formatDate(value: string | Date): string {
  return formatDateTime(value, { dateStyle: "medium" });
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 31_536_000], ["month", 2_592_000], ["week", 604_800], ["day", 86_400], ["hour", 3_600], ["minute", 60], ["second", 1],
];

/** "3 hours ago" / "hace 3 horas" / "il y a 3 heures" / "قبل ٣ ساعات", from the largest whole unit. */
export function formatRelative(value: string | Date, now: Date = new Date()): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const locale = currentLocale();
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, "second");
}
