/** The browse page's filter form: search text, statuses, fooled / flagged / retracted, author, a date range. */
import { useState } from "preact/hooks";
import { emptyFilter, STATUSES, toFilterInput, type Choice, type ExampleFilterInput, type FilterProblem, type FilterValues } from "./filters";
import { BROWSE_TEXT as T } from "./text";

const CHOICES: Choice[] = ["any", "yes", "no"];

export function FilterForm({ onApply }: { onApply: (filter: ExampleFilterInput | null) => void }) {
  const [values, setValues] = useState<FilterValues>(emptyFilter);
  const [problems, setProblems] = useState<FilterProblem[]>([]);
  const set = <K extends keyof FilterValues>(key: K, value: FilterValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(event: Event) {
    event.preventDefault();
    const { input, problems: found } = toFilterInput(values);
    setProblems(found);
    if (found.length) {
      document.getElementById("filter-problems")?.focus();
      return;
    }
    onApply(Object.keys(input).length ? input : null);
  }

  const select = (key: "fooled" | "flagged" | "retracted", label: string) => (
    <div class="field">
      <label for={`filter-${key}`}>{label}</label>
      <select id={`filter-${key}`} value={values[key]} onChange={(e) => set(key, e.currentTarget.value as Choice)}>
        {CHOICES.map((c) => <option key={c} value={c}>{T.choiceText[c]}</option>)}
      </select>
    </div>
  );
  const dateProblem = problems.includes("badDate") || problems.includes("datesReversed");

  return (
    <form class="card" aria-labelledby="filters-title" role="search" onSubmit={submit}
      onReset={() => { setValues(emptyFilter()); setProblems([]); onApply(null); }}>
      <h2 id="filters-title">{T.filtersTitle}</h2>
      {problems.length > 0 && (
        <ul id="filter-problems" tabIndex={-1} role="alert" class="field-errors error">
          {problems.map((p) => <li key={p}>{T.problems[p]}</li>)}
        </ul>
      )}
      <div class="field">
        <label for="filter-text">{T.search}</label>
        <input dir="auto" id="filter-text" type="search" value={values.text} aria-describedby="filter-text-hint"
          aria-invalid={problems.includes("textTooLong")} onInput={(e) => set("text", e.currentTarget.value)} />
        <p class="hint" id="filter-text-hint">{T.searchHint}</p>
      </div>
      <details class="disclosure">
        <summary>{T.statuses}</summary>
        <fieldset class="field">
          <legend class="visually-hidden">{T.statuses}</legend>
          {STATUSES.map((s) => (
            <div key={s}>
              <input id={`filter-status-${s}`} type="checkbox" checked={values.statuses.includes(s)}
                onChange={(e) => set("statuses", e.currentTarget.checked ? [...values.statuses, s] : values.statuses.filter((x) => x !== s))} />{" "}
              <label for={`filter-status-${s}`}>{T.statusText[s]}</label>
            </div>
          ))}
        </fieldset>
      </details>
      {select("fooled", T.fooled)}
      {select("flagged", T.flagged)}
      {select("retracted", T.retracted)}
      <div class="field">
        <label for="filter-author">{T.author}</label>
        <input dir="auto" id="filter-author" type="text" autoComplete="off" value={values.author}
          aria-invalid={problems.includes("authorTooLong")} onInput={(e) => set("author", e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="filter-from">{T.from}</label>
        <input id="filter-from" type="date" value={values.from} aria-invalid={dateProblem} onInput={(e) => set("from", e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="filter-to">{T.to}</label>
        <input id="filter-to" type="date" value={values.to} aria-invalid={dateProblem} onInput={(e) => set("to", e.currentTarget.value)} />
      </div>
      <div class="actions">
        <button type="submit" class="primary">{T.apply}</button>
        <button type="reset">{T.reset}</button>
      </div>
    </form>
  );
}
