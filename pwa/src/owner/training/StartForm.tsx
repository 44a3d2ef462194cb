/**
 * "Start a retraining": the rounds to train from (checkboxes), the profile (fast / full), the gate's scoring tolerance
 * and fewest held-out examples, checked here as the server checks them (training.ts checkTrainForm), and whether to
 * also train and judge on the examples the model agreed with (ticked at first); the server's refusals are shown next
 * to their fields, or in the status line.
 */
import { useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { fieldErrors } from "../../api/types";
import { errorText, Status, useFocusFirstInvalid, type Message } from "../status";
import { TRAIN_TARGET_MODEL, type TrainingProfile, type TrainingRun } from "./documents";
import {
  checkTrainForm, initialTrainForm, MAX_MIN_HELD_OUT, MAX_ROUNDS, trainRequest, type TrainField, type TrainForm,
  type TrainProblem,
} from "./training";
import { TRAINING_TEXT as T } from "./text";

export interface StartFormProps {
  taskCode: string;
  /** The task's round numbers, newest first; the newest is ticked at first. */
  rounds: number[];
  online: boolean;
  /** A run of the task is active: the server would refuse another. */
  blocked: boolean;
  onStarted: (run: TrainingRun) => void;
}

const problemText = (problem: TrainProblem) =>
  ({
    tooManyRounds: T.tooManyRounds(MAX_ROUNDS),
    unknownRound: T.unknownRound,
    tolerance: T.toleranceInvalid,
    minHeldOut: T.minHeldOutInvalid(MAX_MIN_HELD_OUT),
    profile: T.profileInvalid,
  })[problem];

export function StartForm({ taskCode, rounds, online, blocked, onStarted }: StartFormProps) {
  const [form, setForm] = useState<TrainForm>(() => initialTrainForm(rounds));
  const [errors, setErrors] = useState<Partial<Record<TrainField, string>>>({});
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const focusFirst = useFocusFirstInvalid("train-form", "train-status", [errors, message]);

  const set = (patch: Partial<TrainForm>, field: TrainField) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function submit(event: Event) {
    event.preventDefault();
    const problems = checkTrainForm(form, rounds);
    const request_ = trainRequest(form, rounds);
    if (!request_) {
      focusFirst.current = true;
      setErrors(Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, problemText(v!)])));
      setMessage({ text: T.fixErrors, ok: false });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { trainTargetModel: result } = await request(TRAIN_TARGET_MODEL, { taskCode, ...request_ });
      if (result.__typename === "TrainingStarted" && "run" in result) {
        setMessage({ text: T.started, ok: true });
        onStarted(result.run);
      } else {
        const fields = "code" in result ? fieldErrors(result) : [];
        const mine = fields.filter((f) => ["fromRounds", "profile", "scoringTolerance", "minHeldOut"].includes(f.field));
        focusFirst.current = true;
        setErrors(Object.fromEntries(mine.map((f) => [f.field, f.message])));
        const rest = fields.filter((f) => !mine.includes(f));
        setMessage({ text: errorText({ ...(result as { __typename: string; code: string; message: string }), fields: rest }), ok: false });
      }
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (field: TrainField, hint: string) => [hint, errors[field] ? `train-${field}-error` : ""].filter(Boolean).join(" ");
  const invalid = (field: TrainField) => (errors[field] ? "true" : undefined);
  const fieldError = (field: TrainField) =>
    errors[field] ? <p class="field-error" id={`train-${field}-error`} data-testid={`train-${field}-error`}>{errors[field]}</p> : null;

  return (
    <section class="card" aria-labelledby="train-title">
      <h2 id="train-title">{T.startTitle}</h2>
      <form id="train-form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset class="field" aria-describedby={describedBy("fromRounds", "train-rounds-hint")}>
          <legend>{T.rounds}</legend>
          <p class="hint" id="train-rounds-hint">{rounds.length ? T.roundsHint : T.noRounds}</p>
          <ul class="choices">
            {rounds.map((n, i) => (
              <li key={n}>
                <label class="choice">
                  <input type="checkbox" id={`train-round-${n}`} checked={form.rounds.includes(n)}
                    aria-invalid={i === 0 ? invalid("fromRounds") : undefined}
                    onChange={(e) => set({ rounds: e.currentTarget.checked ? [...form.rounds, n] : form.rounds.filter((r) => r !== n) }, "fromRounds")} />
                  {T.round(n)}
                </label>
              </li>
            ))}
          </ul>
          {fieldError("fromRounds")}
        </fieldset>
        <fieldset class="field" aria-describedby={errors.profile ? "train-profile-error" : undefined}>
          <legend>{T.profile}</legend>
          <div class="choice-row">
            {(["FAST", "FULL"] as TrainingProfile[]).map((p, i) => (
              <label class="choice" key={p}>
                <input type="radio" name="train-profile" value={p} checked={form.profile === p}
                  aria-invalid={i === 0 ? invalid("profile") : undefined} onChange={() => set({ profile: p }, "profile")} />
                {p === "FAST" ? T.profileFast : T.profileFull}
              </label>
            ))}
          </div>
          {fieldError("profile")}
        </fieldset>
        <div class="field">
          <label for="train-tolerance">{T.tolerance}</label>
          <input id="train-tolerance" type="text" inputMode="decimal" size={6} value={form.tolerance} dir="ltr"
            aria-describedby={describedBy("scoringTolerance", "train-tolerance-hint")} aria-invalid={invalid("scoringTolerance")}
            onInput={(e) => set({ tolerance: e.currentTarget.value }, "scoringTolerance")} />
          <p class="hint" id="train-tolerance-hint">{T.toleranceHint}</p>
          {fieldError("scoringTolerance")}
        </div>
        <div class="field">
          <label for="train-min-held-out">{T.minHeldOut}</label>
          <input id="train-min-held-out" type="text" inputMode="numeric" size={7} value={form.minHeldOut} dir="ltr"
            aria-describedby={describedBy("minHeldOut", "train-min-held-out-hint")} aria-invalid={invalid("minHeldOut")}
            onInput={(e) => set({ minHeldOut: e.currentTarget.value }, "minHeldOut")} />
          <p class="hint" id="train-min-held-out-hint">{T.minHeldOutHint(MAX_MIN_HELD_OUT)}</p>
          {fieldError("minHeldOut")}
        </div>
        <div class="field checkbox">
          <input id="train-include-agreed" type="checkbox" checked={form.includeAgreed} aria-describedby="train-include-agreed-hint"
            onChange={(e) => { const includeAgreed = e.currentTarget.checked; setForm((f) => ({ ...f, includeAgreed })); }} />
          <label for="train-include-agreed">{T.includeAgreed}</label>
          <p class="hint" id="train-include-agreed-hint">{T.includeAgreedHint}</p>
        </div>
        {blocked && <p class="note" data-testid="train-blocked">{T.activeNote}</p>}
        <button type="submit" class="primary" disabled={busy || !online || blocked}>{busy ? T.starting : T.start}</button>
        <div id="train-status" tabIndex={-1}><Status message={message} testId="train-status" /></div>
      </form>
    </section>
  );
}
