/** The task's name, description and markdown instructions, with the instructions as workers see them once saved. */
import { useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { ErrorResult } from "../../api/types";
import { described, Field, type Errors } from "../create/parts";
import { errorText, useFocusFirstInvalid, type Message } from "../status";
import { UPDATE_TASK, type TaskSettings } from "./documents";
import { controlOf, demoteHeadings } from "./settings";
import { SETTINGS_TEXT as T } from "./text";

export function DetailsSection({ task, onSaved }: { task: TaskSettings; onSaved: (task: TaskSettings) => void }) {
  const [name, setName] = useState(task.name);
  const [description, setDescription] = useState(task.description);
  const [instructions, setInstructions] = useState(task.instructions);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const focusFirst = useFocusFirstInvalid("st-details", "st-details-status", [errors, message]);

  function refused(result: ErrorResult) {
    const next: Errors = {};
    const unplaced: string[] = [];
    for (const f of result.fields ?? []) {
      const id = controlOf(f.field, false);
      if (id?.startsWith("st-")) next[id] = f.message;
      else unplaced.push(`${f.field}: ${f.message}`);
    }
    focusFirst.current = true;
    setErrors(next);
    const count = Object.keys(next).length;
    setMessage({ text: count ? [T.fixErrors(count), ...unplaced].join(" ") : errorText(result), ok: false });
  }

  async function save(event: Event) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const { updateTask: result } = await request(UPDATE_TASK, {
        input: { taskCode: task.code, name: name.trim(), description, instructions },
      });
      if (result.__typename === "TaskUpdated") {
        onSaved(result.task);
        setErrors({});
        setMessage({ text: T.detailsSaved, ok: true });
      } else refused(result);
    } catch (problem) {
      focusFirst.current = true;
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card" aria-labelledby="st-details-title">
      <h2 id="st-details-title">{T.detailsTitle}</h2>
      <form id="st-details" noValidate onSubmit={(e) => void save(e)}>
        <Field id="st-name" label={T.name} errors={errors}>
          <input type="text" {...described("st-name", errors)} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field id="st-description" label={T.description} errors={errors}>
          <textarea rows={2} {...described("st-description", errors)} value={description}
            onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
        <Field id="st-instructions" label={T.instructions} errors={errors} hint={T.instructionsHint}>
          <textarea rows={6} {...described("st-instructions", errors, true)} value={instructions}
            onInput={(e) => setInstructions(e.currentTarget.value)} />
        </Field>
        <button type="submit" class="primary" disabled={busy}>{busy ? T.saving : T.saveDetails}</button>
        <p role="status" aria-live="polite" tabIndex={-1} id="st-details-status" data-testid="details-status"
          class={message ? (message.ok ? "notice-ok" : "error") : ""}>
          {message?.text}
        </p>
      </form>
      <h3 id="st-rendered-title">{T.instructionsShown}</h3>
      {task.instructionsHtml.trim() ? (
        <div class="markdown note" data-testid="instructions-rendered" aria-labelledby="st-rendered-title" role="region"
          dangerouslySetInnerHTML={{ __html: demoteHeadings(task.instructionsHtml) }} />
      ) : <p class="hint">{T.instructionsNone}</p>}
    </section>
  );
}
