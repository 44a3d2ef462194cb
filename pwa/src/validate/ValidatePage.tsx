/**
 * Validating a round's examples: the queue comes live from the `examplesToValidate` subscription
 * (the current queue first, then additions and removals), with `nextExamplesToValidate` as the
 * fallback when the live connection fails. Votes (Correct / Incorrect / Flag, or keys 1 / 2 / 3)
 * go through the IndexedDB outbox, so they can be cast offline and are sent exactly once. A generative task's example
 * is a conversation, read whole (ExampleView), and the vote answers "did the model fail (or hold) as claimed?"; when
 * validators' ratings decide (fooling `validator_rating`), the vote is a rating instead (RatingFields), sent with
 * "Submit rating" (1, Enter) or "Flag" (3).
 */
import { localizeTask } from "../i18n/taskText";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
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
import { asksAnnotator, contextTitles, isGenerative } from "../tasks/config";
import { CLAIM_TEXT } from "../outbox/claims";
import { useTaskDetail } from "../tasks/detail";
import { TaskPicker } from "../ui/TaskPicker";
import { ExampleView } from "./ExampleView";
import { VoteFields, VOTE_FIELD_PREFIX } from "./VoteFields";
import { fieldsForVote, fieldTitle, parseValidatorFields } from "../forms/specs";
import { focusField } from "../forms/FormFields";
import { apiValues, firstInvalid, validateValues, type FormErrors, type FormValues } from "../forms/values";
import { EmptyQueueNote } from "./EmptyQueueNote";
import { generativeOf } from "../chat/config";
import { formatNumber } from "../i18n/format";
import { RATED_VOTE_KEYS, ratedFields, ratedVoteLabel, unseenFields } from "./rating";
import { RatingFields } from "./RatingFields";
import { applyQueueUpdate, claimOf, emptyQueue, exampleSummary, HAND_OUT_SIZE, heldVotes, newlyAdded, removedHeld, shownWaiting, unconfirmedAfter, visibleQueue, wantsRefill } from "./queue";
import { HAND_OUT, VALIDATION_QUEUE, VALIDATION_WAITING, type Waiting } from "./documents";
import { VALIDATE_TEXT as T } from "./text";
import "./validate.css";
import { useAboveTabBar } from "./stickyBar";

export function ValidateIndexPage() {
  return (
    <TaskPicker
      title={T.title}
      lead={T.pickerLead}
      pathFor={(code) => `/validate/${encodeURIComponent(code)}`}
      linkText={T.pickerLink}
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
        <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
        <p role="status">{detail.loading ? T.loadingTask : detail.missing ? T.noTask(code) : detail.error}</p>
        <p><a href={href("/validate")}>{T.allTasks}</a></p>
      </section>
    );
  }
  const rounds = task.rounds.edges.map((edge) => edge.node);
  const roundId = query.get("round") ?? task.currentRound?.id ?? rounds[rounds.length - 1]?.id ?? null;
  if (!roundId) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{T.taskTitle(localizeTask(task).name)}</h1>
        <p>{T.noRounds}</p>
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
  // The true count of what waits for this validator (validationWaiting), kept by the live queue's updates.
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [handingOut, setHandingOut] = useState(false);
  const [dry, setDry] = useState(false); // the last hand-out brought nothing new (e.g. paused by the gold rule)
  const queueRef = useRef<QueueExample[] | null>(null);
  queueRef.current = queue;
  const pageRef = useRef<HTMLDivElement>(null);
  useAboveTabBar(pageRef);
  // A hand-out that brought nothing new: not asked again until the count or the queue changes.
  const exhausted = useRef<string | null>(null);
  const rereadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Bumped by each re-read and each settled vote: an answer to an older re-read (it can arrive after a newer one, or
  // after a vote it does not count yet) is dropped instead of bringing back a stale count.
  const rereadSeq = useRef(0);
  // Votes stored by the server whose removal the live queue has not sent yet (queue.ts unconfirmedAfter).
  const unconfirmed = useRef<Set<string>>(new Set());
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
  // A conversation with a generative target: "did the model fail (or hold) as claimed?", answered Yes / No.
  const generative = isGenerative(task.config);
  const settings = useMemo(() => (generative ? generativeOf(task.config) : null), [task.config]);
  // Validators' ratings decide (fooling validator_rating): no claim to check; each vote is a rating.
  const rated = settings?.decider === "validators";
  const rule = settings?.rating ?? null;
  const yesNo = askUser || (generative && !rated);
  /** The validator fields a vote asks (a rated vote: the rating field first). */
  const fieldsFor = (label: ValidationLabel) => (rated ? ratedFields(validatorFields, rule, label) : fieldsForVote(validatorFields, label));
  /** A rated vote's fields on screen: the submit's, or those of a flag that asks more. */
  const ratingShown = (label: ValidationLabel | null) => fieldsFor(label ?? "CORRECT");
  /** A vote's name in notices: a rated vote says its rating. */
  const voteName = (label: ValidationLabel, fields?: Record<string, unknown>) => {
    const value = rated && label !== "FLAGGED" && rule ? fields?.[rule.field] : undefined;
    return typeof value === "number" ? T.ratingVote(formatNumber(value)) : voteText(label, yesNo, rated);
  };
  const voted = votedExampleIds(items, username);
  const visible = queue ? visibleQueue(queue, voted) : [];
  // Every vote this device holds for the round hides its example (sending, or refused and kept to send again); left
  // out of the count until the server has told the example is gone (then the count itself dropped).
  const queuedIds = useMemo(() => new Set((queue ?? []).map((example) => example.id)), [queue]);
  const shown = shownWaiting(waiting, heldVotes(items, username, roundId, queuedIds), visible.length);
  const current = visible[0] ?? null;
  const currentRef = useRef<QueueExample | null>(null);
  currentRef.current = current;

  // Another example: start its vote afresh.
  useEffect(() => {
    setPending(null);
    setVoteValues({});
    setVoteErrors({});
  }, [current?.id]);

  // Fields to fill in for the chosen vote: focus the first one once shown (a rated vote: the first one it added).
  useEffect(() => {
    const fields = pending ? (rated ? unseenFields(fieldsFor(pending), ratingShown(null)) : fieldsFor(pending)) : [];
    const first = fields[0];
    if (first) focusField(first.name, VOTE_FIELD_PREFIX);
  }, [pending]);

  function store(next: QueueExample[]) {
    void cachePut(cacheKey, next);
    queueRef.current = next;
    return next;
  }

  /** Re-read the true count soon (coalesced): after removals and votes, whose effect on it the page cannot tell. */
  function rereadWaiting() {
    if (rereadTimer.current) clearTimeout(rereadTimer.current);
    rereadTimer.current = setTimeout(() => {
      rereadTimer.current = null;
      const seq = ++rereadSeq.current;
      const counted = [...unconfirmed.current]; // sent after these votes were stored: its count has them
      request(VALIDATION_WAITING, { roundId }).then(
        ({ validationWaiting }) => {
          if (seq !== rereadSeq.current) return;
          setWaiting(validationWaiting);
          for (const id of counted) unconfirmed.current.delete(id);
        },
        () => undefined, // offline: the count stays as it was
      );
    }, 250);
  }
  useEffect(() => () => {
    if (rereadTimer.current) clearTimeout(rereadTimer.current);
  }, []);

  async function fallback(reason: string) {
    setLive("fallback");
    setLiveError(reason);
    try {
      const { nextExamplesToValidate } = await request(HAND_OUT, { roundId, first: HAND_OUT_SIZE });
      setQueue(store(applyQueueUpdate([], { added: nextExamplesToValidate, removedIds: [], reset: true })));
      rereadWaiting();
    } catch (error) {
      setLiveError(`${reason} ${describeError(error)}`);
    }
  }

  /** The queue drains: hand out more while the server has more for this validator. */
  async function refill() {
    const before = queueRef.current ?? [];
    const key = `${waiting?.count}/${before.map((e) => e.id).join(",")}`;
    if (exhausted.current === key) return;
    setHandingOut(true);
    try {
      const { nextExamplesToValidate } = await request(HAND_OUT, { roundId, first: HAND_OUT_SIZE });
      const current = queueRef.current ?? [];
      const fresh = newlyAdded(current, { added: nextExamplesToValidate.filter((e) => !voted.has(e.id)), removedIds: [], reset: false });
      setDry(fresh === 0);
      if (fresh === 0) {
        exhausted.current = key;
        rereadWaiting(); // the count promised more than the server hands out now: read it again
      }
      setQueue(store(applyQueueUpdate(current, { added: nextExamplesToValidate, removedIds: [], reset: false })));
    } catch {
      exhausted.current = key; // offline or refused: tried again once the count or the queue changes
    } finally {
      setHandingOut(false);
    }
  }

  const refillNeeded = queue !== null && isOnline && wantsRefill(visible.length, shown);
  useEffect(() => {
    if (refillNeeded && !handingOut) void refill();
  }, [refillNeeded, handingOut, visible.length, waiting?.count]);

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
      VALIDATION_QUEUE,
      { roundId },
      (data) => {
        const update = data.examplesToValidate;
        setLive("live");
        setLiveError(null);
        const before = queueRef.current ?? [];
        unconfirmed.current = unconfirmedAfter(unconfirmed.current, update);
        // A count read before votes this page knows are stored would count their examples again: read it afresh.
        const countPredatesVotes = update.waiting !== null && update.waiting !== undefined && unconfirmed.current.size > 0;
        if (update.reset && update.waiting) {
          const fresh = update.waiting;
          setWaiting((w) => (countPredatesVotes && w ? w : fresh)); // kept until the re-read below, if it may be stale
          setDry(false);
          exhausted.current = null;
          if (countPredatesVotes) rereadWaiting();
        } else if (countPredatesVotes) {
          rereadWaiting(); // the count stays as this page knows it until then (the queue still follows the update)
        } else {
          // Each new example adds one; each removal of a queued one takes one (it was counted: decided, or voted on
          // by this validator, whose held vote stops being subtracted as the example leaves the queue).
          const delta = newlyAdded(before, update) - removedHeld(before, update);
          // The server's absolute count (sent when examples beyond the ones it sends live arrive or are decided).
          if (update.waiting) setWaiting(update.waiting);
          else if (delta) setWaiting((w) => (w ? { ...w, count: Math.max(0, w.count + delta) } : w));
          if (update.waiting || update.removedIds.length) rereadSeq.current++; // a re-read in flight may predate it
          if (update.removedIds.length) rereadWaiting();
        }
        setQueue(store(applyQueueUpdate(before, update)));
      },
      (message) => void fallback(T.liveUnavailable(message)),
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
        if (outcome === "done") {
          rereadSeq.current++; // a re-read sent before the server had this vote would count it still
          unconfirmed.current.add(item.exampleId);
          const held = queueRef.current;
          if (held?.some((e) => e.id === item.exampleId)) {
            setQueue(store(held.filter((e) => e.id !== item.exampleId)));
            setWaiting((w) => (w ? { ...w, count: Math.max(0, w.count - 1) } : w)); // it was counted; the re-read confirms
          }
          rereadWaiting();
          setNotice({ text: T.voteStored(voteName(item.label, item.fields)), tone: "ok" });
        } else {
          // Field problems (validator fields the server refused) name their field.
          const problems = (item.failure?.fields ?? []).map((f) => {
            const name = f.field.replace(/^fields\./, "").split(".")[0];
            const spec = validatorFields.find((v) => v.name === name);
            return `${spec ? fieldTitle(spec) : name}: ${f.message}`;
          });
          setNotice({ text: [T.voteRefused(item.failure?.message ?? ""), ...problems].join(" "), tone: "error" });
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
    const fields = fieldsFor(label);
    const ask = rated
      ? unseenFields(fields, ratingShown(choices.current.pending)).length > 0 // a flag's own fields: shown first
      : fields.length > 0 && choices.current.pending !== label;
    if (ask) {
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
    const sent = apiValues(fields, values, contexts);
    await castVote(
      {
        exampleId: example.id,
        label,
        mode: owner ? "OWNER" : "USER",
        note: text,
        fields: sent,
        roundId,
        summary: exampleSummary(example),
      },
      { username, taskCode: task.code, taskName: task.name },
    );
    setNote("");
    setPending(null);
    setVoteValues({});
    setVoteErrors({});
    const name = voteName(label, sent);
    setNotice(online.get() ? { text: T.voteSent(name), tone: "queued" } : { text: T.voteSaved(name), tone: "queued" });
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
      const action = rated ? RATED_VOTE_KEYS[event.key] : undefined;
      const label = rated ? (action ? ratedVoteLabel(action) : undefined) : VOTE_KEYS[event.key];
      if (!label || !currentRef.current) return;
      event.preventDefault();
      void vote(label);
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  function changeVoteValue(name: string, value: unknown) {
    const next = { ...choices.current.voteValues, [name]: value };
    choices.current = { ...choices.current, voteValues: next };
    setVoteValues(next);
    setVoteErrors(({ [name]: _fixed, ...rest }) => rest);
  }

  const question = generative && !rated && current ? (claimOf(current, askUser) === "failed" ? T.questionFailed : T.questionHeld) : null;

  return (
    <div class={question ? "validate has-question" : "validate"} ref={pageRef}>
      <header class="page-head">
        <p class="crumbs"><a href={href("/validate")}>{T.title}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{T.taskTitle(localizeTask(task).name)}</h1>
        <p class="lead">{rated ? T.ratingLead : generative ? T.generativeLead : askUser ? CLAIM_TEXT.validateLead : T.lead}</p>
      </header>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="queue-title" data-testid="validate-current">
            <h2 id="queue-title">
              {current ? T.exampleTitle : T.queueTitle}
              <span class="count" data-testid="queue-count" data-count={shown?.count ?? visible.length}>
                {" "}{T.waiting(shown?.count ?? visible.length, shown?.capped ?? false)}
              </span>
            </h2>
            {queue === null ? (
              <p role="status">{isOnline ? T.loadingQueue : T.offlineNoQueue}</p>
            ) : current ? (
              <ExampleView key={current.id} example={current} config={task.config} askUser={askUser} />
            ) : (
              <EmptyQueueNote state={emptyQueue(shown, isOnline, dry)} onAskAgain={() => {
                exhausted.current = null;
                setDry(false);
                rereadWaiting();
              }} />
            )}
          </section>
        </div>
        <aside class="col-side" aria-label={T.sideLabel}>
          <section class="card vote-panel" aria-labelledby="vote-title">
            <h2 id="vote-title">{rated ? T.ratingTitle : T.voteTitle}</h2>
            {rated && current && (
              <RatingFields
                goal={settings?.goal ?? ""}
                rule={rule}
                fields={ratingShown(pending)}
                fieldName={(spec) => localizeTask(task).field(spec.name, fieldTitle(spec))}
                values={voteValues}
                errors={voteErrors}
                contexts={current.context.fields}
                contextTitles={contextTitles(task.config)}
                onChange={changeVoteValue}
                onSend={() => void vote(choices.current.pending ?? ratedVoteLabel("submit"))}
              />
            )}
            <div class={rated ? "actions vote-buttons rated" : "actions vote-buttons"} role="group" aria-labelledby="vote-title"
              aria-describedby={question ? "vote-question" : rated ? "rating-flag-hint" : undefined}>
              {question && <p class="vote-question" id="vote-question" data-testid="vote-question">{question}</p>}
              {rated && (Object.entries(RATED_VOTE_KEYS) as [string, "submit" | "flag"][]).map(([key, action]) => (
                <button
                  type="button"
                  key={action}
                  class={`vote vote-${ratedVoteLabel(action).toLowerCase()}`}
                  aria-keyshortcuts={key}
                  disabled={!current}
                  onClick={() => void vote(ratedVoteLabel(action))}
                >
                  {action === "submit" ? T.submitRating : T.flag} <kbd aria-hidden="true">{key}</kbd>
                </button>
              ))}
              {!rated && (Object.entries(VOTE_KEYS) as [string, ValidationLabel][]).map(([key, label]) => (
                <button
                  type="button"
                  key={label}
                  class={`vote vote-${label.toLowerCase()}`}
                  aria-keyshortcuts={key}
                  disabled={!current}
                  aria-pressed={pending ? pending === label : undefined}
                  onClick={() => void vote(label)}
                >
                  {voteText(label, yesNo)} <kbd aria-hidden="true">{key}</kbd>
                </button>
              ))}
            </div>
            {rated && <p class="hint" id="rating-flag-hint">{T.ratingFlagHint}</p>}
            {pending && current && !rated && (
              <VoteFields
                vote={voteText(pending, yesNo)}
                fields={fieldsForVote(validatorFields, pending)}
                values={voteValues}
                errors={voteErrors}
                contexts={current.context.fields}
                contextTitles={contextTitles(task.config)}
                onChange={changeVoteValue}
                onSend={() => void vote(pending)}
                onCancel={() => {
                  setPending(null);
                  setVoteErrors({});
                }}
              />
            )}
            <div class="field">
              <label for="vote-note">{T.noteLabel}</label>
              <input id="vote-note" type="text" maxLength={500} value={note} onInput={(e) => {
                choices.current = { ...choices.current, note: e.currentTarget.value };
                setNote(e.currentTarget.value);
              }}
                aria-describedby="vote-note-hint" />
              <p class="hint" id="vote-note-hint">{T.noteHint}</p>
            </div>
            {task.viewerIsOwner && (
              <div class="field checkbox">
                <input id="owner-mode" type="checkbox" checked={ownerMode} onChange={(e) => {
                  choices.current = { ...choices.current, ownerMode: e.currentTarget.checked };
                  setOwnerMode(e.currentTarget.checked);
                }}
                  aria-describedby="owner-mode-hint" />
                <label for="owner-mode">{T.ownerMode}</label>
                <span class="hint" id="owner-mode-hint">{T.ownerModeHint}</span>
              </div>
            )}
            <p role="status" aria-live="polite" class={`status-line notice-${notice?.tone ?? "none"}`} data-testid="vote-notice">
              {notice?.text}
            </p>
          </section>
          <section class="card" aria-labelledby="round-side-title">
            <h2 id="round-side-title">{T.roundTitle(round?.number ?? "")}</h2>
            {rounds.length > 1 && (
              <div class="field">
                <label for="round-select">{T.otherRound}</label>
                <select id="round-select" value={roundId}
                  onChange={(e) => navigate(`/validate/${encodeURIComponent(task.code)}?round=${encodeURIComponent(e.currentTarget.value)}`)}>
                  {rounds.map((r) => <option value={r.id} key={r.id}>{T.roundTitle(r.number)}</option>)}
                </select>
              </div>
            )}
            <p class="hint" data-testid="live-state" data-live={live}>
              {!isOnline ? T.offline : live === "live" ? T.live : live === "fallback" ? T.notLive(liveError ?? "") : T.connecting}
            </p>
            {live === "fallback" && (
              <button type="button" onClick={() => setGeneration((g) => g + 1)}>{T.reconnect}</button>
            )}
            <p><a href={href(`/tasks/${encodeURIComponent(task.code)}`)}>{T.writeExamples}</a></p>
          </section>
        </aside>
      </div>
    </div>
  );
}

/** A vote button's text; on ask_user and generative tasks the question is whether the claim holds (Yes / No); a rated
 * vote is a rating. */
function voteText(label: ValidationLabel, yesNo: boolean, rated = false): string {
  if (label === "FLAGGED") return T.flag;
  if (rated) return T.submitRating;
  if (yesNo) return label === "CORRECT" ? CLAIM_TEXT.voteYes : CLAIM_TEXT.voteNo;
  return VOTE_TEXT[label];
}

