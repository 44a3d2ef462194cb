/**
 * The language picker: each language named in itself; the app re-renders at once. Full (label and hint: the Account
 * page) or compact (a globe and the select, its label for screen readers: the header, signed out, and the account
 * menu, which sits in the header from 900 px on), so it is reachable from every page.
 */
import { useState } from "preact/hooks";
import { isLocale, LOCALES } from "./locales";
import { currentLocale, setLocale } from "./runtime";
import { I18N_TEXT } from "./text";

export function LanguagePicker({ id = "language", compact = false }: { id?: string; compact?: boolean }) {
  const [busy, setBusy] = useState(false);
  const locale = currentLocale();
  const select = (
    <select
      id={id}
      value={locale}
      disabled={busy}
      aria-describedby={compact ? undefined : `${id}-hint`}
      onChange={(event) => {
        const next = (event.target as HTMLSelectElement).value;
        if (!isLocale(next) || next === locale) return;
        setBusy(true);
        setLocale(next).finally(() => setBusy(false));
      }}
    >
      {LOCALES.map((l) => (
        <option key={l.code} value={l.code} lang={l.code} dir={l.dir}>
          {l.name}
        </option>
      ))}
    </select>
  );
  if (compact) {
    return (
      <div class="language-compact" data-testid={id}>
        <label for={id} class="visually-hidden">{I18N_TEXT.label}</label>
        <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z"
            fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" />
        </svg>
        {select}
      </div>
    );
  }
  return (
    <div class="field language-picker">
      <label for={id}>{I18N_TEXT.label}</label>
      {select}
      <p id={`${id}-hint`} class="hint">{I18N_TEXT.hint}</p>
    </div>
  );
}
