/** The language picker (Account page and login page): each language named in itself; the app re-renders at once. */
import { useState } from "preact/hooks";
import { isLocale, LOCALES } from "./locales";
import { currentLocale, setLocale } from "./runtime";
import { I18N_TEXT } from "./text";

export function LanguagePicker({ id = "language" }: { id?: string }) {
  const [busy, setBusy] = useState(false);
  const locale = currentLocale();
  return (
    <div class="field language-picker">
      <label for={id}>{I18N_TEXT.label}</label>
      <select
        id={id}
        value={locale}
        disabled={busy}
        aria-describedby={`${id}-hint`}
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
      <p id={`${id}-hint`} class="hint">{I18N_TEXT.hint}</p>
    </div>
  );
}
