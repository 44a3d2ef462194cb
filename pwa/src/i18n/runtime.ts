/**
 * The active UI locale. English catalogs live in each area's text.ts (in the base bundle or the area's chunk); the
 * other locales load as one lazy chunk each (./locales/<code>.ts), so only the chosen one is downloaded. Every text
 * table is wrapped by `localized`: reading a key gives the active locale's string, or English when it has none.
 * Lingui's i18n instance holds the active locale (its change event re-renders the app: no reload needed).
 */
import { i18n } from "@lingui/core";
import type { Domain, LocaleCatalog } from "./catalogs";
import { browserLanguages, DEFAULT_LOCALE, direction, type Locale, negotiate, saveLocale, savedLocale } from "./locales";

const loaders: Record<Exclude<Locale, "en">, () => Promise<{ default: LocaleCatalog }>> = {
  es: () => import("./locales/es"),
  fr: () => import("./locales/fr"),
  ar: () => import("./locales/ar"),
};

let active: Partial<LocaleCatalog> = {};
i18n.load(DEFAULT_LOCALE, {});
i18n.activate(DEFAULT_LOCALE);

export function currentLocale(): Locale {
  return (i18n.locale as Locale) || DEFAULT_LOCALE;
}

/** The text table `en` of `domain`, read through the active locale (English for whatever it lacks). */
export function localized<T extends object>(domain: Domain, en: T): T {
  return new Proxy(en, {
    get(target, key, receiver) {
      const table = active[domain] as Record<PropertyKey, unknown> | undefined;
      if (table && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
      return Reflect.get(target, key, receiver);
    },
  });
}

/** Tests and the locale chunks: use this catalog (null: English only) without touching the DOM. */
export function activateCatalog(locale: Locale, catalog: Partial<LocaleCatalog> | null): void {
  active = catalog ?? {};
  i18n.load(locale, {});
  i18n.activate(locale);
}

function applyToDocument(locale: Locale): void {
  if (typeof document === "undefined") return;
  document.documentElement.lang = locale;
  document.documentElement.dir = direction(locale);
}

async function load(locale: Locale): Promise<Partial<LocaleCatalog> | null> {
  return locale === "en" ? null : (await loaders[locale]()).default;
}

/** Switch the UI locale: load its catalog, remember the choice, set lang/dir on <html> and re-render. */
export async function setLocale(locale: Locale): Promise<void> {
  const catalog = await load(locale);
  saveLocale(locale);
  applyToDocument(locale);
  activateCatalog(locale, catalog);
}

export function onLocaleChange(listener: () => void): () => void {
  return i18n.on("change", listener);
}

/**
 * Start-up (main.tsx): negotiate the locale (saved choice, else the browser's languages, else English), load its
 * catalog before the first paint (no flash of English), render, and render again whenever the locale changes.
 */
export function startI18n(render: () => void): void {
  const locale = negotiate(savedLocale(), browserLanguages());
  const first = () => {
    applyToDocument(currentLocale());
    render();
    onLocaleChange(render);
  };
  if (locale === DEFAULT_LOCALE) {
    first();
    return;
  }
  load(locale).then(
    (catalog) => {
      activateCatalog(locale, catalog);
      first();
    },
    () => first(), // The chunk could not be fetched (offline before it was cached): English rather than nothing.
  );
}
