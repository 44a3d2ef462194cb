/** Locale negotiation, persistence, switching and formatting. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_TEXT } from "../account/text";
import { formatMetric, shareText } from "../leaderboard/weights";
import { clientProblems } from "../owner/create/builder";
import { emptyForm, validateForm } from "../owner/campaigns/form";
import { parseGraceHours, validateWebhookForm } from "../owner/webhooks/form";
import { formatDate, formatDateTime, formatNumber, formatPercent, formatRelative, plural } from "./format";
import { direction, negotiate, savedLocale, STORAGE_KEY } from "./locales";
import { activateCatalog, currentLocale, onLocaleChange, setLocale } from "./runtime";

class MemoryStorage {
  private values = new Map<string, string>();
  getItem(key: string) { return this.values.get(key) ?? null; }
  setItem(key: string, value: string) { this.values.set(key, String(value)); }
  removeItem(key: string) { this.values.delete(key); }
}

beforeEach(() => {
  Object.defineProperty(globalThis, "localStorage", { value: new MemoryStorage(), configurable: true, writable: true });
});
afterEach(() => activateCatalog("en", null));

describe("negotiate", () => {
  it("prefers a saved known locale", () => {
    expect(negotiate("fr", ["es-ES", "en"])).toBe("fr");
    expect(negotiate("ar", [])).toBe("ar");
  });
  it("ignores an unknown saved value and takes the first browser language we have", () => {
    expect(negotiate("de", ["de-DE", "es-MX", "fr"])).toBe("es");
    expect(negotiate(null, ["fr-CA", "en-US"])).toBe("fr");
    expect(negotiate(null, ["ar-EG"])).toBe("ar");
    expect(negotiate(undefined, ["pt_BR", "ES"])).toBe("es");
  });
  it("falls back to English", () => {
    expect(negotiate(null, [])).toBe("en");
    expect(negotiate("xx", ["de", "ja"])).toBe("en");
  });
  it("knows which locales are right-to-left", () => {
    expect(direction("ar")).toBe("rtl");
    expect(direction("fr")).toBe("ltr");
  });
});

describe("setLocale", () => {
  it("loads the catalog, switches every text table, remembers the choice and notifies", async () => {
    let changes = 0;
    const stop = onLocaleChange(() => changes++);
    await setLocale("fr");
    expect(currentLocale()).toBe("fr");
    expect(ACCOUNT_TEXT.accountTitle).toBe("Votre compte");
    expect(ACCOUNT_TEXT.signedInAs("zoé")).toBe("Connecté en tant que zoé.");
    expect(savedLocale()).toBe("fr");
    expect(localStorage.getItem(STORAGE_KEY)).toBe("fr");
    expect(changes).toBeGreaterThan(0);
    await setLocale("es");
    expect(ACCOUNT_TEXT.accountTitle).toBe("Tu cuenta");
    await setLocale("en");
    expect(ACCOUNT_TEXT.accountTitle).toBe("Your account");
    expect(savedLocale()).toBe("en");
    stop();
  });
});

describe("formatting in the active locale", () => {
  const date = new Date("2026-11-24T18:20:00Z");

  it("numbers and percents", () => {
    activateCatalog("en", null);
    expect(formatNumber(1234.5)).toBe("1,234.5");
    expect(formatPercent(0.812)).toBe("81.2%");
    activateCatalog("fr", null);
    expect(formatNumber(1234.5).replace(/\u202f|\u00a0/g, " ")).toBe("1 234,5");
    expect(formatPercent(0.812).replace(/\u202f|\u00a0/g, " ")).toBe("81,2 %");
    activateCatalog("es", null);
    expect(formatNumber(12345.5)).toBe("12.345,5");
  });

  it("dates", () => {
    activateCatalog("fr", null);
    expect(formatDateTime(date, { dateStyle: "long", timeZone: "UTC" })).toBe("24 novembre 2026");
    activateCatalog("es", null);
    expect(formatDateTime(date, { dateStyle: "long", timeZone: "UTC" })).toBe("24 de noviembre de 2026");
    expect(formatDate("not a date")).toBe("not a date");
  });

  it("relative times", () => {
    const now = new Date("2026-11-24T21:20:00Z");
    activateCatalog("en", null);
    expect(formatRelative(date, now)).toBe("3 hours ago");
    activateCatalog("fr", null);
    expect(formatRelative(date, now)).toBe("il y a 3 heures");
    activateCatalog("es", null);
    expect(formatRelative(date, now)).toBe("hace 3 horas");
    expect(formatRelative(new Date("2026-11-23T21:20:00Z"), now)).toBe("ayer");
  });

  it("plural in the active locale", () => {
    activateCatalog("ar", null);
    expect(plural(2, { one: "واحد", two: "اثنان", other: "#" })).toBe("اثنان");
    activateCatalog("fr", null);
    expect(plural(0, { one: "# essai", other: "# essais" })).toBe("0 essai");
  });
});

describe("the pure modules' messages follow the locale", () => {
  it("form checks and metric texts read the active catalog", async () => {
    await setLocale("es");
    const campaign = validateForm({ ...emptyForm(1), status: "OPEN", currency: "usd" }, true);
    expect(campaign).toContainEqual({ field: "consent", message: "una campaña abierta necesita un texto de consentimiento" });
    expect(campaign).toContainEqual({ field: "currency", message: "un código ISO 4217 de tres letras, como USD o EUR" });
    expect(validateWebhookForm({ url: "", events: [], description: "" }).map((p) => p.message)).toEqual([
      "Indica la URL a la que se envían los avisos.", "Elige al menos un evento.",
    ]);
    expect(clientProblems("", "", null)[0].message).toBe("Ponle un código a la tarea.");
    expect(formatMetric("PERF", 90)).toMatch(/^90,0\s%$/);
    await setLocale("fr");
    expect(parseGraceHours("999")).toBe("Un nombre entier d’heures de 0 à 168.");
    expect(shareText("MEMORY", 0.25, undefined, 3)).toMatch(/^25\s%/);
    await setLocale("ar");
    expect(validateForm({ ...emptyForm(1), title: "" }, true)[0].message).toMatch(/^من حرف واحد إلى/);
    await setLocale("en");
    expect(validateForm({ ...emptyForm(1), title: "" }, true)[0].message).toBe("1 to 200 characters of text");
  });
});
