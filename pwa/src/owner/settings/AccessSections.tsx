/** Who owns the task (add by username; remove with a confirmation; never the last owner) and who sees it. */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { described, Field, type Errors } from "../create/parts";
import { errorText, type Message } from "../status";
import { ADD_TASK_OWNER, REMOVE_TASK_OWNER, SET_TASK_VISIBILITY, type TaskSettings, type Visibility } from "./documents";
import { canRemoveOwner, visibilityChoices } from "./settings";
import { SETTINGS_TEXT as T } from "./text";

/**
 * A section's changes: one at a time (busy), the result line's message, and where focus goes once it is shown
 * (`focusTo`, read after `shown` changes). `run` sends a change; a message it returns is shown with focus on the
 * status line, and so is a failed request.
 */
function useChange(statusId: string, shown: unknown[]) {
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const focusTo = useRef<string | null>(null);

  useEffect(() => {
    const id = focusTo.current;
    if (!id) return;
    focusTo.current = null;
    document.getElementById(id)?.focus();
  }, [message, ...shown]);

  async function run(change: () => Promise<Message | void>) {
    if (busy) return;
    setBusy(true);
    try {
      const outcome = await change();
      if (outcome) {
        focusTo.current = statusId;
        setMessage(outcome);
      }
    } catch (problem) {
      focusTo.current = statusId;
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  return { message, setMessage, busy, focusTo, run };
}

function StatusLine({ id, message }: { id: string; message: Message }) {
  return (
    <p role="status" aria-live="polite" tabIndex={-1} id={id} data-testid={id}
      class={message ? (message.ok ? "notice-ok" : "error") : ""}>
      {message?.text}
    </p>
  );
}

export function OwnersSection({ task, viewer, onOwners }: {
  task: TaskSettings;
  viewer: string;
  onOwners: (owners: string[]) => void;
}) {
  const [username, setUsername] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState<string | null>(null);
  const { message, setMessage, busy, focusTo, run } = useChange("st-owners-status", [errors, confirming]);
  const removable = canRemoveOwner(task.owners);

  function add(event: Event) {
    event.preventDefault();
    if (busy) return;
    const name = username.trim();
    if (!name) {
      focusTo.current = "st-owner-username";
      setErrors({ "st-owner-username": T.usernameMissing });
      return;
    }
    return run(async () => {
      const { addTaskOwner: result } = await request(ADD_TASK_OWNER, { taskCode: task.code, username: name });
      if (result.__typename === "TaskOwnerAdded") {
        onOwners(result.owners);
        setUsername("");
        setErrors({});
        setMessage({ text: T.added(name), ok: true });
      } else {
        focusTo.current = "st-owner-username";
        setErrors({ "st-owner-username": errorText(result) });
        setMessage(null);
      }
    });
  }

  const remove = (user: string) => run(async () => {
    const { removeTaskOwner: result } = await request(REMOVE_TASK_OWNER, { taskCode: task.code, username: user });
    setConfirming(null);
    if (result.__typename !== "TaskOwnerRemoved") return { text: errorText(result), ok: false };
    onOwners(result.owners);
    return { text: T.removed(user), ok: true };
  });

  return (
    <section class="card" aria-labelledby="st-owners-title">
      <h2 id="st-owners-title">{T.ownersTitle}</h2>
      <p class="hint">{T.ownersLead}</p>
      <ul class="round-list owner-list" data-testid="owner-list">
        {task.owners.map((owner) => (
          <li key={owner} data-owner={owner}>
            <span>{owner} {owner === viewer && <span class="hint">{T.you}</span>}</span>{" "}
            {confirming === owner ? (
              <div class="actions confirm" role="group" aria-label={T.confirmRemove(owner)}>
                <p id={`st-remove-${owner}-explain`}>{T.removeExplain(owner, owner === viewer)}</p>
                <button type="button" class="danger" id={`st-remove-${owner}-yes`} disabled={busy}
                  aria-describedby={`st-remove-${owner}-explain`} onClick={() => void remove(owner)}>{T.yesRemove(owner)}</button>{" "}
                <button type="button" disabled={busy} onClick={() => { focusTo.current = `st-remove-${owner}`; setConfirming(null); }}>
                  {T.cancel}
                </button>
              </div>
            ) : (
              <>
                <button type="button" id={`st-remove-${owner}`} disabled={!removable}
                  aria-describedby={removable ? undefined : "st-last-owner"}
                  onClick={() => { focusTo.current = `st-remove-${owner}-yes`; setConfirming(owner); }}>
                  {T.remove(owner)}
                </button>
                {!removable && <p class="hint" id="st-last-owner">{T.lastOwner}</p>}
              </>
            )}
          </li>
        ))}
      </ul>
      <form class="inline-form" noValidate onSubmit={(e) => void add(e)}>
        <Field id="st-owner-username" label={T.addLabel} errors={errors} hint={T.addHint}>
          <input type="text" {...described("st-owner-username", errors, true)} value={username} autocapitalize="off"
            spellcheck={false} autocomplete="off" onInput={(e) => setUsername(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={busy}>{T.add}</button>
      </form>
      <StatusLine id="st-owners-status" message={message} />
    </section>
  );
}

export function VisibilitySection({ task, onSaved }: { task: TaskSettings; onSaved: (task: TaskSettings) => void }) {
  const [confirming, setConfirming] = useState<Visibility | null>(null);
  const { message, busy, focusTo, run } = useChange("st-visibility-status", [confirming]);
  const choices = visibilityChoices(task.status);

  const apply = (visibility: Visibility) => run(async () => {
    const { setTaskVisibility: result } = await request(SET_TASK_VISIBILITY, { taskCode: task.code, visibility });
    setConfirming(null);
    if (result.__typename !== "TaskVisibilityChanged") return { text: errorText(result), ok: false };
    onSaved(result.task);
    return { text: T.visibilityDone[visibility], ok: true };
  });

  return (
    <section class="card" aria-labelledby="st-visibility-title">
      <h2 id="st-visibility-title">{T.visibilityTitle}</h2>
      <p data-testid="visibility-now">{T.statuses[task.status]}</p>
      {choices.length === 0 && <p class="hint">{T.visibilityProposal}</p>}
      {confirming ? (
        <div class="actions confirm" role="group" aria-label={T.confirmVisibility[confirming]}>
          <p id="st-visibility-explain">{T.explain[confirming]}</p>
          <button type="button" class={confirming === "PUBLIC" ? "primary" : "danger"} id="st-visibility-yes" disabled={busy}
            aria-describedby="st-visibility-explain" onClick={() => void apply(confirming)}>{T.yes[confirming]}</button>{" "}
          <button type="button" disabled={busy} onClick={() => { focusTo.current = `st-visibility-${confirming}`; setConfirming(null); }}>
            {T.cancel}
          </button>
        </div>
      ) : (
        <p class="actions">
          {choices.map((v) => (
            <button type="button" key={v} id={`st-visibility-${v}`}
              onClick={() => { focusTo.current = "st-visibility-yes"; setConfirming(v); }}>{T.actions[v]}</button>
          ))}
        </p>
      )}
      <StatusLine id="st-visibility-status" message={message} />
    </section>
  );
}
