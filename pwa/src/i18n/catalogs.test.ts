/** Every locale catalog has exactly the English keys, the same function parameters, and keeps every interpolated value. */
import { afterAll, describe, expect, it } from "vitest";
import { ACCOUNT_EN } from "../account/text";
import { ADMIN_EN } from "../admin/text";
import { ATTACK_EN } from "../attack/text";
import { BATTLE_EN } from "../battle/text";
import { NETWORK_EN } from "../api/text";
import { AUTH_EN } from "../auth/text";
import { FORM_EN } from "../forms/text";
import { INBOX_EN } from "../inbox/text";
import { JOIN_EN } from "../join/text";
import { LEADERBOARD_EN } from "../leaderboard/text";
import { BROWSE_EN } from "../owner/browse/text";
import { CAMPAIGN_EN } from "../owner/campaigns/text";
import { CREATE_EN } from "../owner/create/text";
import { WEBHOOK_EN } from "../owner/webhooks/text";
import { ANNOTATE_EN } from "../annotate/text";
import { CHAT_EN } from "../chat/text";
import { MODELS_EN } from "../models/text";
import { OFFLINE_EN } from "../offline/text";
import { EXAMPLES_EN } from "../examples/text";
import { CLAIM_EN } from "../outbox/claims";
import { OUTBOX_PAGE_EN } from "../outbox/text";
import { VOTE_EN } from "../outbox/validations";
import { SETTINGS_EN } from "../owner/settings/text";
import { OWNER_EN } from "../owner/text";
import { TRANSCRIPT_EN } from "../transcript/text";
import { SUGGEST_EN } from "../suggest/text";
import { RUNS_EN } from "../owner/runs/text";
import { TRAINING_EN } from "../owner/training/text";
import { SHELL_EN } from "../ui/text";
import { EXAMPLE_VIEW_EN, VALIDATE_EN } from "../validate/text";
import type { EnglishCatalogs, LocaleCatalog } from "./catalogs";
import ar from "./locales/ar";
import es from "./locales/es";
import fr from "./locales/fr";
import { activateCatalog } from "./runtime";
import { I18N_EN } from "./text";

const ENGLISH: EnglishCatalogs = {
  account: ACCOUNT_EN, admin: ADMIN_EN, attack: ATTACK_EN, battle: BATTLE_EN, auth: AUTH_EN, forms: FORM_EN, inbox: INBOX_EN, join: JOIN_EN,
  leaderboard: LEADERBOARD_EN, browse: BROWSE_EN, campaigns: CAMPAIGN_EN, create: CREATE_EN, webhooks: WEBHOOK_EN, i18n: I18N_EN,
  annotate: ANNOTATE_EN, chat: CHAT_EN, transcript: TRANSCRIPT_EN, validate: VALIDATE_EN, exampleView: EXAMPLE_VIEW_EN, claims: CLAIM_EN, votes: VOTE_EN, models: MODELS_EN,
  offline: OFFLINE_EN, settings: SETTINGS_EN, owner: OWNER_EN, shell: SHELL_EN, outboxPage: OUTBOX_PAGE_EN, examples: EXAMPLES_EN,
  network: NETWORK_EN, suggest: SUGGEST_EN, runs: RUNS_EN, training: TRAINING_EN,
};
const LOCALES = { es, fr, ar } as const satisfies Record<string, LocaleCatalog>;

type Table = Record<string, unknown>;
type Fn = (...args: unknown[]) => string;

/** Sample arguments by parameter name (enums get a real member; the rest distinct values to find in the output). */
const NAMED: Record<string, unknown> = {
  action: "RETRACT", label: "CORRECT", mode: "OWNER", kind: "MODEL_SCORED", problem: "length", platform: "PROLIFIC",
  owners: ["ana", "bo"], inputs: ["premise", "hypothesis"], labels: ["negative", "positive"], iso: "2026-11-24T18:20:00Z",
  when: "2026-11-24", what: "Field", more: true, admin: true, disabled: true, proposal: true, passMark: 3,
  numbers: [41, 43], self: false, modelWasWrong: true, capped: true, published: true, bytes: 16_342_000,
};
const DISTINCT = [17, 23, 29, 31];
const DISTINCT_TEXT = ["Zed", "Quill", "Vex", "Jinx"];

function parameterNames(fn: Fn): string[] {
  const source = fn.toString();
  const list = source.startsWith("(") ? source.slice(1, source.indexOf(")")) : source.slice(0, source.indexOf("=>"));
  return list.split(",").map((p) => p.trim().split(/[\s:=]/)[0]).filter(Boolean);
}

function sampleArgs(fn: Fn): unknown[] {
  return parameterNames(fn).map((name, i) => {
    if (name in NAMED) return NAMED[name];
    return /^(n|i|total|score|left|max|min|step|scale|used|value|matched|unknown|notApproved|workers|unpaid|unread|ms|line|column|round|percent|accuracy|f1|done|failed|count|number|version|kept|bytes|modelBytes|runtimeBytes|current|next)$/.test(name)
      ? DISTINCT[i]
      : DISTINCT_TEXT[i];
  });
}

/** Arabic-Indic digits as Latin ones, without grouping separators (ICU versions differ on Arabic's default digits). */
const latinDigits = (s: string) => s.replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[\u00a0\u202f\u066c٬,]/g, "");

function compare(locale: keyof typeof LOCALES, path: string, en: Table, other: Table) {
  expect(Object.keys(other).sort(), `${locale}: keys of ${path}`).toEqual(Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    const [a, b] = [en[key], other[key]];
    const where = `${locale}: ${path}.${key}`;
    expect(typeof b, where).toBe(typeof a);
    if (typeof a === "string") {
      expect((b as string).trim().length, where).toBeGreaterThan(0);
    } else if (typeof a === "function") {
      const args = sampleArgs(a as Fn);
      expect((b as Fn).length, `${where} parameters`).toBe((a as Fn).length);
      activateCatalog("en", null);
      const english = (a as Fn)(...args);
      activateCatalog(locale, LOCALES[locale]);
      const translated = (b as Fn)(...args);
      expect(typeof translated, where).toBe("string");
      expect(translated, where).not.toMatch(/undefined|NaN|\[object/);
      for (const value of args.flat()) {
        if ((typeof value === "number" || (typeof value === "string" && DISTINCT_TEXT.includes(value)) || NAMED.owners === value)
          && latinDigits(english).includes(String(value))) {
          expect(latinDigits(translated), `${where} keeps ${value}`).toContain(String(value));
        }
      }
      for (const value of args.filter(Array.isArray).flat() as string[]) {
        if (english.includes(value)) expect(translated, `${where} keeps ${value}`).toContain(value);
      }
    } else {
      compare(locale, `${path}.${key}`, a as Table, b as Table);
    }
  }
}

afterAll(() => activateCatalog("en", null));

describe("locale catalogs", () => {
  for (const locale of Object.keys(LOCALES) as (keyof typeof LOCALES)[]) {
    it(`${locale} has every English table, key and parameter`, () => {
      expect(Object.keys(LOCALES[locale]).sort()).toEqual(Object.keys(ENGLISH).sort());
      for (const domain of Object.keys(ENGLISH) as (keyof EnglishCatalogs)[]) {
        compare(locale, domain, ENGLISH[domain] as Table, LOCALES[locale][domain] as Table);
      }
    });
  }
});

/** Strings a locale may keep as in English: brand and technical names, and words the languages share. */
const SAME_AS_ENGLISH: Record<string, RegExp> = {
  es: /^(Dynabench|Dynascore|Webhooks?:?|Provisional|No|Email|URL|ID|JSON|CSV|JSONL|Token|MTurk|Prolific|Slack|Discord|HMAC|SHA-256|OK|Total|Error|Normal)$/,
  fr: /^(Dynabench|Dynascore|Webhooks?:?|Action|Votes|Question|Quotas|Code|Standard|Format|Description|Version|Performance|Scores|Correct|Incorrect|Notifications|Exemples?|Campagne|Administration|Instructions|Transactions|Message|Date|Type|Total|Options|Actions|Source|Email|URL|JSON|CSV|JSONL|Token|MTurk|Prolific|Slack|Discord|HMAC|SHA-256|OK|Accuracy|Normal|Publication|Support|Validation|Note)$/,
  ar: /^(Dynabench|Dynascore)$/,
};

function untranslated(locale: keyof typeof LOCALES, path: string, en: Table, other: Table, found: string[]) {
  for (const key of Object.keys(en)) {
    const [a, b] = [en[key], other[key]];
    if (typeof a === "string") {
      if (a === b && /[A-Za-z]{2}/.test(a) && !a.startsWith("X-Dynabench-") && !SAME_AS_ENGLISH[locale].test(a.trim())) found.push(`${path}.${key}: ${a}`);
    } else if (a && typeof a === "object") {
      untranslated(locale, `${path}.${key}`, a as Table, b as Table, found);
    }
  }
}

describe("no English left in the locale tables", () => {
  for (const locale of Object.keys(LOCALES) as (keyof typeof LOCALES)[]) {
    it(`${locale}: every string of every domain is translated (brand and shared words allowlisted)`, () => {
      const found: string[] = [];
      for (const domain of Object.keys(ENGLISH) as (keyof EnglishCatalogs)[]) {
        untranslated(locale, domain, ENGLISH[domain] as Table, LOCALES[locale][domain] as Table, found);
      }
      expect(found).toEqual([]);
    });
  }
});

describe("plural forms (CLDR)", () => {
  const counts = [0, 1, 2, 5, 11, 100];
  const forms = (fn: (n: number) => string) => counts.map(fn);

  it("Spanish: one for 1, other for the rest", () => {
    expect(forms(es.join.attemptsLeft)).toEqual([
      "Te quedan 0 intentos.", "Te queda 1 intento.", "Te quedan 2 intentos.", "Te quedan 5 intentos.", "Te quedan 11 intentos.",
      "Te quedan 100 intentos.",
    ]);
    expect(es.browse.selected(1)).toBe("1 ejemplo seleccionado");
    expect(es.browse.selected(11)).toBe("11 ejemplos seleccionados");
  });

  it("French: one for 0 and 1, other from 2", () => {
    expect(forms(fr.join.attemptsLeft)).toEqual([
      "Il vous reste 0 essai.", "Il vous reste 1 essai.", "Il vous reste 2 essais.", "Il vous reste 5 essais.",
      "Il vous reste 11 essais.", "Il vous reste 100 essais.",
    ]);
    expect(fr.browse.selected(0)).toBe("0 exemple sélectionné");
    expect(fr.webhooks.attemptsTitle(2)).toBe("2 tentatives");
  });

  it("Arabic: six forms — zero, one, two, few (3–10), many (11–99), other (100)", () => {
    for (const fn of [ar.join.attemptsLeft, ar.inbox.bell, ar.leaderboard.ranked, ar.browse.selected, ar.forms.fieldsToFix]) {
      const texts = forms(fn);
      expect(new Set(texts).size, texts.join(" | ")).toBe(6);
    }
    expect(ar.join.attemptsLeft(2)).toBe("تبقّت محاولتان.");
    expect(latinDigits(ar.join.attemptsLeft(5))).toBe("تبقّت 5 محاولات.");
    expect(latinDigits(ar.join.attemptsLeft(11))).toBe("تبقّت 11 محاولة.");
    expect(ar.inbox.bell(0)).toBe("الإشعارات، لا شيء غير مقروء");
    for (const fn of [ar.annotate.attemptsCount, ar.settings.fixErrors, ar.settings.refused, (n: number) => ar.owner.contextsAdded(n, 1)]) {
      expect(new Set(forms(fn)).size, forms(fn).join(" | ")).toBe(6);
    }
    expect(ar.annotate.attemptsCount(2)).toBe("محاولتان");
  });

  it("the second pass's counts: Spanish and French attempts, errors and changes", () => {
    expect(forms(es.annotate.attemptsCount)).toEqual(["0 intentos", "1 intento", "2 intentos", "5 intentos", "11 intentos", "100 intentos"]);
    expect(fr.annotate.attemptsCount(0)).toBe("0 essai");
    expect(fr.annotate.attemptsCount(2)).toBe("2 essais");
    expect(es.settings.fixErrors(1)).toBe("Corrige el error que se indica abajo.");
    expect(es.settings.fixErrors(3)).toBe("Corrige los 3 errores que se indican abajo.");
    expect(fr.settings.refused(1)).toMatch(/^Non enregistré : un changement/);
    expect(forms(ANNOTATE_EN.attemptsCount)).toEqual(["0 attempts", "1 attempt", "2 attempts", "5 attempts", "11 attempts", "100 attempts"]);
    expect(SHELL_EN.waitingToSync(0)).toBe("waiting to sync");
    expect(es.shell.waitingToSync(1)).toBe("pendiente de sincronizar");
    expect(es.shell.waitingToSync(2)).toBe("pendientes de sincronizar");
  });

  it("English keeps one/other", () => {
    expect(forms(JOIN_EN.attemptsLeft)).toEqual([
      "0 attempts left.", "1 attempt left.", "2 attempts left.", "5 attempts left.", "11 attempts left.", "100 attempts left.",
    ]);
  });
});
