/**
 * The owner task page's "Open a new round" card: the target models to choose from (what the target Triton serves for
 * the task's kind, the LLM endpoints an admin registered and enabled for a generative task, and the task's published
 * submissions), with readiness and, for each one the owner cannot use, the server's reason; one or more are ticked and
 * sent as `{name, version}`, `{endpoint}` or `{modelId}`. Opening a round closes the open one, so that is asked first.
 */
import { useState } from "preact/hooks";
import { LLM_ENDPOINT_CHOICES } from "../admin/llm/documents";
import { describeError, request } from "../api/client";
import { CREATE_ROUND } from "../api/documents";
import type { TaskDetail } from "../api/types";
import { loadTasks } from "../tasks/store";
import { SERVED_TARGET_MODELS } from "./create/documents";
import { errorText, Status, type Message } from "./status";
import { anyChoosable, chosenTargets, keepChosen, servedFor, servedKind, targetOptions, type TargetOption } from "./targets";
import { OWNER_TEXT as T, ROUND_TEXT } from "./text";
import { useOwnerQuery } from "./useOwnerQuery";

export function describeTarget(o: TargetOption): string {
  if (o.source === "endpoint") return T.targetEndpointAbout;
  const readiness = o.source === "submission" ? (o.ready ? T.targetReady : T.targetIdle) : o.ready ? T.targetReady : T.targetNotReady;
  const parts = [
    o.source === "submission" ? T.targetSubmission : o.version ? T.targetVersion(o.version) : "",
    readiness,
    o.shared ? T.targetShared : "",
    T.targetHeldout(o.heldoutAccuracy, o.heldoutF1),
  ];
  return parts.filter(Boolean).join(" · ");
}

export function OpenRoundCard({ task, onOpened }: { task: TaskDetail; onOpened: () => Promise<void> }) {
  const code = task.code;
  const targets = useOwnerQuery(
    async () => {
      // LLM endpoints can only judge a generative task; listing them is for the task's owners (and admins).
      const endpoints = task.config.kind === "generative" && task.viewerIsOwner;
      const [{ servedTargetModels: served }, choices] = await Promise.all([
        request(SERVED_TARGET_MODELS, { kind: servedKind(task.config.kind), taskCode: code }),
        endpoints ? request(LLM_ENDPOINT_CHOICES, { taskCode: code }).then((d) => d.llmEndpointChoices) : Promise.resolve([]),
      ]);
      return targetOptions({ ...served, targets: servedFor(served.targets, task.config.kind) }, choices);
    },
    [code, task.config.kind, task.viewerIsOwner],
  );
  const options = targets.data ?? [];
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState("");
  const [message, setMessage] = useState<Message>(null);
  // Opening a round closes the open one: asked first, as "Close round" asks.
  const [confirming, setConfirming] = useState(false);
  const [opening, setOpening] = useState(false);
  const current = task.currentRound;
  const picked = keepChosen(options, chosen);

  function toggle(key: string, on: boolean) {
    setChosen((keys) => (on ? [...keys.filter((k) => k !== key), key] : keys.filter((k) => k !== key)));
    setProblem("");
  }

  function ask(event: Event) {
    event.preventDefault();
    if (!picked.length) {
      setProblem(T.targetsChooseOne);
      setMessage(null);
      const first = options.findIndex((o) => o.choosable);
      document.getElementById(first >= 0 ? `round-target-${first}` : "round-targets-error")?.focus();
      return;
    }
    if (current && !current.endAt) setConfirming(true);
    else void open();
  }

  async function open() {
    setOpening(true);
    try {
      const { createRound: result } = await request(CREATE_ROUND, {
        input: { taskCode: code, targetModels: chosenTargets(options, picked) },
      });
      if (result.__typename === "RoundCreated") {
        setConfirming(false);
        setChosen([]);
        setMessage({ text: ROUND_TEXT.opened(result.round.number), ok: true });
        void loadTasks(); // the app's task list (annotate, validate) has a new open round now
        await onOpened();
      } else setMessage({ text: errorText(result), ok: false });
    } catch (failure) {
      setMessage({ text: describeError(failure), ok: false });
    } finally {
      setOpening(false);
    }
  }

  const loaded = targets.data !== undefined;
  const described = ["round-targets-hint", problem ? "round-targets-error" : ""].filter(Boolean).join(" ");
  return (
    <section class="card" aria-labelledby="round-open-title">
      <h2 id="round-open-title">{T.openRoundTitle}</h2>
      <form onSubmit={(e) => ask(e)} noValidate>
        <fieldset class="field" aria-describedby={described} data-testid="round-targets">
          <legend>{T.targetModels}</legend>
          <p class="hint" id="round-targets-hint">{T.targetModelsHint}</p>
          {!loaded && !targets.error && <p role="status">{T.targetsLoading}</p>}
          {targets.error && (
            <p class="error">{T.targetsFailed(targets.error)}{" "}
              <button type="button" onClick={() => void targets.reload()}>{T.targetsRefresh}</button></p>
          )}
          {loaded && !anyChoosable(options) && <p class="note" data-testid="no-usable-targets">{T.targetsNoneUsable}</p>}
          <ul class="choices target-list">
            {options.map((o, i) => (
              <li key={o.key} data-testid={o.source === "endpoint" ? `target-endpoint-${o.name}` : `target-${o.name}`}
                data-choosable={o.choosable ? "true" : "false"}>
                <label class="choice">
                  <input type="checkbox" id={`round-target-${i}`} value={o.key} checked={picked.includes(o.key)} disabled={!o.choosable}
                    aria-describedby={`round-target-${i}-about`} aria-invalid={problem && o.choosable ? "true" : undefined}
                    onChange={(e) => toggle(o.key, e.currentTarget.checked)} />
                  {o.source === "endpoint"
                    ? <><strong>{T.targetEndpoint(o.name)}</strong> (<bdi>{o.model}</bdi>)</>
                    : <strong>{o.name}</strong>}
                </label>
                <p class="hint" id={`round-target-${i}-about`}>
                  {describeTarget(o)}
                  {o.reason && <><br /><span dir="auto" data-testid="target-reason">{o.reason}</span></>}
                </p>
              </li>
            ))}
          </ul>
          {problem && <p class="field-error" id="round-targets-error" tabIndex={-1}>{problem}</p>}
        </fieldset>
        {!confirming && <button type="submit" disabled={opening}>{ROUND_TEXT.open}</button>}
        {confirming && current && (
          <div class="actions" role="group" aria-label={ROUND_TEXT.confirmGroup(current.number)} data-testid="confirm-open-round">
            <span>{ROUND_TEXT.confirmOpen(current.number, current.number + 1)}</span>
            <button type="button" class="primary" disabled={opening} onClick={() => void open()}>
              {ROUND_TEXT.yesOpen(current.number, current.number + 1)}
            </button>
            <button type="button" disabled={opening} onClick={() => setConfirming(false)}>{ROUND_TEXT.cancel}</button>
          </div>
        )}
        <Status message={message} testId="round-status" />
      </form>
    </section>
  );
}
