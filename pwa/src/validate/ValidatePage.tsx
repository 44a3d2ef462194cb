/**
 * Validating a round's examples: the queue comes live from the `examplesToValidate` subscription
 * (the current queue first, then additions and removals), with `nextExamplesToValidate` as the
 * fallback when the live connection fails. Votes (Correct / Incorrect / Flag, or keys 1 / 2 / 3)
 * go through the IndexedDB outbox, so they can be cast offline and are sent exactly once.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { EXAMPLES_TO_VALIDATE, NEXT_EXAMPLES_TO_VALIDATE } from "../api/documents";
import type { QueueExample, TaskDetail, ValidationLabel } from "../api/types";
import { subscribe } from "../api/ws";
import { session } from "../auth/session";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { outboxItems } from "../outbox/store";
import { castVote, voteSettled } from "../outbox/sync";
import { VOTE_KEYS, VOTE_TEXT, votedExampleIds } from "../outbox/validations";
import type { PageProps } from "../routes";
import { href, navigate } from "../router";
import { cacheGet, cachePut } from "../storage/db";
import { asksAnnotator, contextTitles } from "../tasks/config";
import { CLAIM_TEXT } from "../outbox/claims";
import { useTaskDetail } from "../tasks/detail";
import { TaskPicker } from "../ui/TaskPicker";
import { ExampleView } from "./ExampleView";
import { VoteFields, VOTE_FIELD_PREFIX } from "./VoteFields";
import { fieldsForVote, fieldTitle, parseValidatorFields } from "../forms/specs";
import { focusField } from "../forms/FormFields";
import { apiValues, firstInvalid, validateValues, type FormErrors, type FormValues } from "../forms/values";
import { applyQueueUpdate, exampleSummary, visibleQueue } from "./queue";

export function ValidateIndexPage() {
  return (
    <TaskPicker
      title="Validate"
      lead="Check other people’s examples: is the intended label right, and did the example really fool the model?"
      pathFor={(code) => `/validate/${encodeURIComponent(code)}`}
      linkText="Validate examples"
    />
  );
}

export function ValidatePage({ params, query }: PageProps) {
  const code = params.code;
  const username = useObservable(session)?.user.username ?? "";
  const detail = useTaskDetail(code, username);
  const task = detail.task;

  if (!task) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>Validate</h1>
        <p role="status">{detail.loading ? "Loading the task…" : detail.missing ? `There is no task “${code}”.` : detail.error}</p>
        <p><a href={href("/validate")}>All tasks</a></p>
      </section>
    );
  }
  const rounds = task.rounds.edges.map((edge) => edge.node);
  const roundId = query.get("round") ?? task.currentRound?.id ?? rounds[rounds.length - 1]?.id ?? null;
  if (!roundId) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>Validate: {task.name}</h1>
        <p>This task has no rounds yet.</p>
      </section>
    );
  }
  return <Validator key={`${username}/${roundId}`} task={task} roundId={roundId} username={username} />;
}

type Notice = { text: string; tone: "ok" | "queued" | "error" };

function Validator({ task, roundId, username }: { task: TaskDetail; roundId: string; username: string }) {
  const isOnline = useObservable(online);
  const items = useObservable(outboxItems);
  const [queue, setQueue] = useState<QueueExample[] | null>(null);
  const [live, setLive] = useState<"connecting" | "live" | "fallback">("connecting");
  const [liveError, setLiveError] = useState<string | null>(null);
  const [ownerMode, setOwnerMode] = useState(false);
  const [note, setNote] = useState("");
  const [notice, setNotice] = useState<Notice | null>(null);
  // A vote whose validator fields are being filled in (the task asks some for it), with their values.
  const [pending, setPending] = useState<ValidationLabel | null>(null);
  const [voteValues, setVoteValues] = useState<FormValues>({});
  const [voteErrors, setVoteErrors] = useState<FormErrors>({});
  const validatorFields = useMemo(() => parseValidatorFields(task.config), [task.config]);
  const [generation, setGeneration] = useState(0);
  const cacheKey = `validateQueue/${username}/${roundId}`;
  const rounds = task.rounds.edges.map((edge) => edge.node);
  const round = rounds.find((r) => r.id === roundId);

  const askUser = asksAnnotator(task.config); // validators check the author's claim: "was the model really wrong?"
  const voted = votedExampleIds(items, username);
  const visible = queue ? visibleQueue(queue, voted) : [];
  const current = visible[0] ?? null;
  const currentRef = useRef<QueueExample | null>(null);
  currentRef.current = current;

  // Another example: start its vote afresh.
  useEffect(() => {
    setPending(null);
    setVoteValues({});
    setVoteErrors({});
  }, [current?.id]);

  // Fields to fill in for the chosen vote: focus the first one once shown.
  useEffect(() => {
    const first = pending ? fieldsForVote(validatorFields, pending)[0] : undefined;
    if (first) focusField(first.name, VOTE_FIELD_PREFIX);
  }, [pending]);

  function store(next: QueueExample[]) {
    void cachePut(cacheKey, next);
    return next;
  }

  async function fallback(reason: string) {
    setLive("fallback");
    setLiveError(reason);
    try {
      const { nextExamplesToValidate } = await request(NEXT_EXAMPLES_TO_VALIDATE, { roundId, first: 20 });
      setQueue(store(applyQueueUpdate([], { added: nextExamplesToValidate, removedIds: [], reset: true })));
    } catch (error) {
      setLiveError(`${reason} ${describeError(error)}`);
    }
  }

  // Start from the queue saved on this device (offline start), then go live.
  useEffect(() => {
    let cancelled = false;
    void cacheGet<QueueExample[]>(cacheKey).then((cached) => {
      if (!cancelled && cached) setQueue((q) => q ?? cached);
    });
    return () => {
      cancelled = true;
    };
  }, [cacheKey]);

  useEffect(() => {
    setLive("connecting");
    const stop = subscribe(
      EXAMPLES_TO_VALIDATE,
      { roundId },
      (data) => {
        setLive("live");
        setLiveError(null);
        setQueue((q) => store(applyQueueUpdate(q ?? [], data.examplesToValidate)));
      },
      (message) => void fallback(`The live queue is unavailable (${message}).`),
    );
    return stop;
  }, [roundId, generation]);

  // After reconnecting, re-read the queue: subscribing again starts with the whole queue.
  useEffect(() => reconnected.on(() => setGeneration((g) => g + 1)), []);

  useEffect(
    () =>
      voteSettled.on(({ item, outcome }) => {
        if (item.roundId !== roundId) return;
        // The server has the vote: the example has left this validator's queue for good.
        if (outcome === "done") setQueue((q) => (q ? store(q.filter((e) => e.id !== item.exampleId)) : q));
        if (outcome === "done") setNotice({ text: `Your vote “${voteText(item.label, askUser)}” is stored.`, tone: "ok" });
        else {
          // Field problems (validator fields the server refused) name their field.
          const problems = (item.failure?.fields ?? []).map((f) => {
            const name = f.field.replace(/^fields\./, "").split(".")[0];
            const spec = validatorFields.find((v) => v.name === name);
            return `${spec ? fieldTitle(spec) : name}: ${f.message}`;
          });
          setNotice({ text: [`Your vote was refused: ${item.failure?.message ?? ""}`, ...problems].join(" "), tone: "error" });
        }
      }),
    [roundId],
  );

  // Read at the moment of the vote (a key press may come before a re-render's effects ran).
  const choices = useRef({ ownerMode, note, pending, voteValues });
  choices.current = { ownerMode, note, pending, voteValues };

  /** A vote button or key: votes at once, unless the task asks fields for this vote (then they are shown first). */
  async function vote(label: ValidationLabel) {
    const example = currentRef.current;
    if (!example) return;
    const fields = fieldsForVote(validatorFields, label);
    if (fields.length && choices.current.pending !== label) {
      setPending(label);
      setVoteErrors({});
      return;
    }
    const contexts = example.context.fields;
    const values = choices.current.voteValues;
    if (fields.length) {
      const problems = validateValues(fields, values, contexts);
      setVoteErrors(problems);
      const first = firstInvalid(fields, problems);
      if (first) {
        focusField(first, VOTE_FIELD_PREFIX);
        return;
      }
    }
    const { ownerMode: owner, note: text } = choices.current;
    await castVote(
      {
        exampleId: example.id,
        label,
        mode: owner ? "OWNER" : "USER",
        note: text,
        fields: apiValues(fields, values, contexts),
        roundId,
        summary: exampleSummary(example),
      },
      { username, taskCode: task.code, taskName: task.name },
    );
    setNote("");
    setPending(null);
    setVoteValues({});
    setVoteErrors({});
    setNotice(
      online.get()
        ? { text: `Vote “${voteText(label, askUser)}” sent.`, tone: "queued" }
        : { text: `Vote “${voteText(label, askUser)}” saved on this device; it will be sent when you are online.`, tone: "queued" },
    );
  }

  // Keys 1 / 2 / 3 vote, unless the focus is in a text field or a modifier is held.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest?.(".vote-fields")) return; // answering the vote's fields
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
        const type = (target as HTMLInputElement).type;
        if (target.tagName !== "INPUT" || !["checkbox", "radio", "button"].includes(type)) return;
      }
      const label = VOTE_KEYS[event.key];
      if (!label || !currentRef.current) return;
      event.preventDefault();
      void vote(label);
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div class="validate">
      <header class="page-head">
        <p class="crumbs"><a href={href("/validate")}>Validate</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>Validate: {task.name}</h1>
        <p class="lead">
          {askUser ? CLAIM_TEXT.validateLead : "Is each example’s intended label right, and did it really fool the model? Vote with the buttons or the keys 1, 2 and 3."}
        </p>
      </header>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="queue-title" data-testid="validate-current">
            <h2 id="queue-title">
              {current ? "Example to validate" : "Queue"}
              <span class="count" data-testid="queue-count"> ({visible.length} waiting)</span>
            </h2>
            {queue === null ? (
              <p role="status">{isOnline ? "Loading the queue…" : "You are offline and no queue of this round is saved on this device yet."}</p>
            ) : current ? (
              <ExampleView key={current.id} example={current} config={task.config} askUser={askUser} />
            ) : (
              <p data-testid="queue-empty">No examples wait for validation. New ones appear here as soon as someone fools the model.</p>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label="Vote and round">
          <section class="card vote-panel" aria-labelledby="vote-title">
            <h2 id="vote-title">Your vote</h2>
            <div class="actions vote-buttons" role="group" aria-labelledby="vote-title">
              {(Object.entries(VOTE_KEYS) as [string, ValidationLabel][]).map(([key, label]) => (
                <button
                  type="button"
                  key={label}
                  class={`vote vote-${label.toLowerCase()}`}
                  aria-keyshortcuts={key}
                  disabled={!current}
                  aria-pressed={pending ? pending === label : undefined}
                  onClick={() => void vote(label)}
                >
                  {voteText(label, askUser)} <kbd aria-hidden="true">{key}</kbd>
                </button>
              ))}
            </div>
            {pending && current && (
              <VoteFields
                vote={voteText(pending, askUser)}
                fields={fieldsForVote(validatorFields, pending)}
                values={voteValues}
                errors={voteErrors}
                contexts={current.context.fields}
                contextTitles={contextTitles(task.config)}
                onChange={(name, value) => {
                  const next = { ...choices.current.voteValues, [name]: value };
                  choices.current = { ...choices.current, voteValues: next };
                  setVoteValues(next);
                  setVoteErrors(({ [name]: _fixed, ...rest }) => rest);
                }}
                onSend={() => void vote(pending)}
                onCancel={() => {
                  setPending(null);
                  setVoteErrors({});
                }}
              />
            )}
            <div class="field">
              <label for="vote-note">Note (optional)</label>
              <input id="vote-note" type="text" maxLength={500} value={note} onInput={(e) => {
                choices.current = { ...choices.current, note: e.currentTarget.value };
                setNote(e.currentTarget.value);
              }}
                aria-describedby="vote-note-hint" />
              <p class="hint" id="vote-note-hint">Say why, e.g. when you flag an example. Keys 1–3 do not vote while you type here.</p>
            </div>
            {task.viewerIsOwner && (
              <div class="field checkbox">
                <input id="owner-mode" type="checkbox" checked={ownerMode} onChange={(e) => {
                  choices.current = { ...choices.current, ownerMode: e.currentTarget.checked };
                  setOwnerMode(e.currentTarget.checked);
                }}
                  aria-describedby="owner-mode-hint" />
                <label for="owner-mode">Owner mode</label>
                <span class="hint" id="owner-mode-hint">(you own this task: your vote decides at once)</span>
              </div>
            )}
            <p role="status" aria-live="polite" class={`status-line notice-${notice?.tone ?? "none"}`} data-testid="vote-notice">
              {notice?.text}
            </p>
          </section>
          <section class="card" aria-labelledby="round-side-title">
            <h2 id="round-side-title">Round {round?.number ?? ""}</h2>
            {rounds.length > 1 && (
              <div class="field">
                <label for="round-select">Validate another round</label>
                <select id="round-select" value={roundId}
                  onChange={(e) => navigate(`/validate/${encodeURIComponent(task.code)}?round=${encodeURIComponent(e.currentTarget.value)}`)}>
                  {rounds.map((r) => <option value={r.id} key={r.id}>Round {r.number}</option>)}
                </select>
              </div>
            )}
            <p class="hint" data-testid="live-state" data-live={live}>
              {!isOnline ? "Offline: votes are kept on this device." : live === "live" ? "Live: new examples appear by themselves." : live === "fallback" ? `Not live: ${liveError ?? ""}` : "Connecting…"}
            </p>
            {live === "fallback" && (
              <button type="button" onClick={() => setGeneration((g) => g + 1)}>Reconnect</button>
            )}
            <p><a href={href(`/tasks/${encodeURIComponent(task.code)}`)}>Write examples for this task</a></p>
          </section>
        </aside>
      </div>
    </div>
  );
}

/** A vote button's text; on ask_user tasks the question is whether the author's claim holds. */
function voteText(label: ValidationLabel, askUser: boolean): string {
  if (label === "FLAGGED") return "Flag";
  if (askUser) return label === "CORRECT" ? CLAIM_TEXT.voteYes : CLAIM_TEXT.voteNo;
  return VOTE_TEXT[label];
}
