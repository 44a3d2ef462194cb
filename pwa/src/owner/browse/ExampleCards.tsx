/**
 * The examples as cards (input text, label, status, fooled, flag) with a checkbox each, a bulk action bar (the five
 * actions, an optional note, a confirmation step), "Flag" on each card (with its own confirmation) and each example's
 * outcome on its card; the summary and the failures are announced in a polite live region. The list is updated from
 * the action's own answer (the examples as the server now has them; one that left the list's filter leaves the list).
 * "Details" opens the example's review dialog. A conversation (generative tasks) shows its last exchange, which
 * expands to the whole transcript.
 */
import { useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { Example } from "../../api/types";
import { errorText, Status, type Message } from "../status";
import { ACT_ON_EXAMPLES } from "./documents";
import { ACTIONS, applyOutcomes, inputText, summarizeOutcomes, toggle, type BulkAction, type ExampleFilterInput, type Outcome } from "./filters";
import { ReviewDialog } from "./ReviewDialog";
import { LazyTranscriptPreview } from "../../transcript/lazy";
import { isTranscriptInput } from "../../transcript/transcript";
import { formatDateTime } from "../../i18n/format";
import { BROWSE_TEXT as T } from "./text";

interface Props {
  examples: Example[];
  onChange: (examples: Example[]) => void;
  emptyText: string;
  filter: ExampleFilterInput | null; // the list's filter: an example an action takes out of it leaves the list
}

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

export function ExampleCards({ examples, onChange, emptyText, filter }: Props) {
  const [selected, setSelected] = useState<string[]>([]);
  const [action, setAction] = useState<BulkAction>("VALIDATE_CORRECT");
  const [note, setNote] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [flagging, setFlagging] = useState<string | null>(null); // the card whose "Flag" waits for its confirmation

  const shown = new Set(examples.map((e) => e.id));
  const chosen = selected.filter((id) => shown.has(id));

  async function act(ids: string[], action: BulkAction, note: string, bulk: boolean) {
    setBusy(true);
    try {
      const { actOnExamples: result } = await request(ACT_ON_EXAMPLES, { exampleIds: ids, action, note: note.trim() });
      if (result.__typename === "ExamplesActedOn") {
        const summary = summarizeOutcomes(result.outcomes);
        const titles = new Map(examples.map((e) => [e.id, short(inputText(e.input).text)]));
        const failures = summary.failures.map((f) => `“${titles.get(f.exampleId) ?? f.exampleId}”: ${f.message}`).join(" ");
        setMessage({ text: `${T.summary(action, summary.done, summary.failed)}${failures ? ` ${failures}` : ""}`, ok: summary.failed === 0 });
        setOutcomes(Object.fromEntries(result.outcomes.map((o) => [o.exampleId, o])));
        onChange(applyOutcomes(examples, result.outcomes, filter));
        if (bulk) {
          setSelected([]);
          setNote("");
        }
      } else setMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
      setConfirming(false);
      setFlagging(null);
    }
  }

  return (
    <div>
      {examples.length === 0 ? <p>{emptyText}</p> : (
        <ul class="example-list" data-testid="browse-list">
          {examples.map((e) => {
            const { text, label } = inputText(e.input);
            const outcome = outcomes[e.id];
            const box = `pick-${e.id}`;
            return (
              <li class="card example-row" key={e.id} data-testid="browse-card" data-id={e.id}>
                <div class="example-row-head">
                  <input id={box} type="checkbox" checked={chosen.includes(e.id)}
                    onChange={(ev) => setSelected((s) => toggle(s, e.id, ev.currentTarget.checked))} />
                  <label for={box} class="visually-hidden">{T.select(short(text))}</label>
                  <span class="status-tag">{T.statusText[e.status.toUpperCase() as keyof typeof T.statusText] ?? e.status}</span>
                  {e.fooled !== null && <span class="status-tag">{e.fooled ? T.fooledTag : T.notFooledTag}</span>}
                  {e.flagged && <span class="status-tag">{T.flaggedTag}</span>}
                  {e.retracted && <span class="status-tag">{T.retractedTag}</span>}
                </div>
                {isTranscriptInput(e.input)
                  ? <LazyTranscriptPreview input={e.input} modelOutput={e.modelOutput} reader="other" idBase={`card-${e.id}`} />
                  : <p class="example-text example-input" dir="auto">{text}</p>}
                {label !== null && <p class="hint">{T.label}: {label}</p>}
                {e.flagged && e.flagReason && <p class="hint">{T.flagReason(e.flagReason)}</p>}
                <p class="hint">{T.written(formatDateTime(e.createdAt))}</p>
                {outcome && (
                  <p class={outcome.done ? "notice-ok" : "notice-error"} data-testid="browse-outcome">
                    {outcome.done ? T.outcomeDone : T.outcomeFailed}: {outcome.message}
                  </p>
                )}
                <div class="actions">
                  <button type="button" aria-label={T.detailsOf(short(text))} onClick={() => setReviewing(e.id)}>{T.details}</button>
                  {!e.retracted && e.status.toUpperCase() !== "FLAGGED" && flagging !== e.id && (
                    <button type="button" aria-label={T.flagOne(short(text))} onClick={() => setFlagging(e.id)}>{T.flag}</button>
                  )}
                </div>
                {flagging === e.id && (
                  <div class="actions" role="group" aria-label={T.flagConfirm(short(text))} data-testid="flag-confirm">
                    <span>{T.flagConfirm(short(text))}</span>
                    <button type="button" class="primary" disabled={busy} onClick={() => void act([e.id], "VALIDATE_FLAGGED", "", false)}>{T.flagYes}</button>
                    <button type="button" disabled={busy} onClick={() => setFlagging(null)}>{T.cancel}</button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {examples.length > 0 && (
        <section class="card" aria-labelledby="bulk-title" data-testid="bulk-bar">
          <h2 id="bulk-title">{T.bulkTitle}</h2>
          <p data-testid="selected-count">{T.selected(chosen.length)}</p>
          <div class="actions">
            <button type="button" onClick={() => setSelected(examples.slice(0, 100).map((e) => e.id))}>{T.selectAll}</button>
            <button type="button" disabled={!chosen.length} onClick={() => setSelected([])}>{T.clearSelection}</button>
          </div>
          <div class="field">
            <label for="bulk-action">{T.action}</label>
            <select id="bulk-action" value={action} onChange={(ev) => { setAction(ev.currentTarget.value as BulkAction); setConfirming(false); }}>
              {ACTIONS.map((a) => <option key={a} value={a}>{T.actionText[a]}</option>)}
            </select>
          </div>
          <div class="field">
            <label for="bulk-note">{T.note}</label>
            <input dir="auto" id="bulk-note" type="text" maxLength={2000} aria-describedby="bulk-note-hint" value={note}
              onInput={(ev) => setNote(ev.currentTarget.value)} />
            <p class="hint" id="bulk-note-hint">{T.noteHint}</p>
          </div>
          {!confirming ? (
            <button type="button" class="primary" onClick={() => {
              if (!chosen.length) setMessage({ text: T.selectFirst, ok: false });
              else { setMessage(null); setConfirming(true); }
            }}>{T.applyAction}</button>
          ) : (
            <div class="actions" role="group" aria-label={T.confirm(action, chosen.length)}>
              <span>{T.confirm(action, chosen.length)}</span>
              <button type="button" class="primary" disabled={busy} onClick={() => void act(chosen, action, note, true)}>{T.confirmYes}</button>
              <button type="button" disabled={busy} onClick={() => setConfirming(false)}>{T.cancel}</button>
            </div>
          )}
          <Status message={message} testId="bulk-status" />
        </section>
      )}
      {reviewing && <ReviewDialog exampleId={reviewing} onClose={() => setReviewing(null)} />}
    </div>
  );
}
