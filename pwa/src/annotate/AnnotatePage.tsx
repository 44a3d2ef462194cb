/**
 * Writing an example: the task's current round → a context (re-sample on demand) → the inputs and
 * intended label (or answer span) → submit → the live verdict. The draft is saved on every keystroke.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { CREATE_EXAMPLE, NEXT_CONTEXT } from "../api/documents";
import type { CreateExampleInput, FieldError, Task } from "../api/types";
import { currentToken, session } from "../auth/session";
import { newClientId } from "../lib/uuid";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { fieldsShown, parseFieldSpecs } from "../forms/specs";
import { apiValues, validateValues } from "../forms/values";
import { delivered, submitExample } from "../outbox/sync";
import { discardItem } from "../outbox/store";
import { href } from "../router";
import { contextTitles, isQA, labelsOf, passageField } from "../tasks/config";
import { loadTasks, tasksState } from "../tasks/store";
import { ContextPanel } from "./ContextPanel";
import { clearedDraft, draftKey, emptyDraft, loadDraft, saveDraft, type Draft } from "./drafts";
import { ExampleForm, inputId } from "./ExampleForm";
import { t } from "./i18n";
import { acknowledge, browserStore, mustRead } from "./instructions";
import { InstructionsPanel } from "./InstructionsPanel";
import { RoundStats } from "./RoundStats";
import { apiAnswer } from "./spans";
import { viewOfSubmission, type VerdictView } from "./verdict";
import { VerdictPanel, type Shown } from "./VerdictPanel";

const MAX_TIME_MS = 7 * 24 * 3600 * 1000;

export function AnnotatePage({ params }: { params: Record<string, string> }) {
  const code = params.code;
  const tasks = useObservable(tasksState);
  const task = tasks.tasks?.find((t) => t.code === code);

  useEffect(() => {
    if (!tasks.tasks && !tasks.loading) void loadTasks();
  }, []);

  if (!task) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>Annotate</h1>
        <p role="status">{tasks.loading || !tasks.tasks ? "Loading the task…" : tasks.error ?? `There is no task “${code}”.`}</p>
        <p><a href={href("/")}>All tasks</a></p>
      </section>
    );
  }
  if (!task.currentRound) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{task.name}</h1>
        <p>This task has no open round.</p>
      </section>
    );
  }
  return <Annotate key={`${task.code}/${task.currentRound.id}`} task={task} />;
}

function Annotate({ task }: { task: Task }) {
  const round = task.currentRound!;
  const username = useObservable(session)?.user.username ?? "";
  const isOnline = useObservable(online);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [contextError, setContextError] = useState<string | null>(null);
  const [loadingContext, setLoadingContext] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const draftRef = useRef<Draft | null>(null);
  draftRef.current = draft;
  const key = draftKey(username, task.code, round.id);
  const passageName = passageField(task.config);
  const qa = isQA(task.config);
  const specs = useMemo(() => parseFieldSpecs(task.config), [task.config]);
  const alwaysFields = useMemo(() => fieldsShown(specs, "always"), [specs]);
  const spanNames = new Set(specs.filter((spec) => spec.type === "span").map((spec) => spec.name));
  const instructionsHtml = task.instructionsHtml ?? "";
  // Before the first example of the task (and after the instructions change): read them first. Later, on demand.
  const [instructions, setInstructions] = useState<"first" | "open" | "closed">(() =>
    mustRead(browserStore(), username, task.code, instructionsHtml) ? "first" : "closed",
  );

  // The task list may come from the device's cache first: fresher instructions not read yet are shown first.
  useEffect(() => {
    if (mustRead(browserStore(), username, task.code, instructionsHtml)) setInstructions("first");
  }, [instructionsHtml]);

  const focusAfterInstructions = useRef(false);
  function closeInstructions() {
    if (instructions === "first") acknowledge(browserStore(), username, task.code, instructionsHtml);
    focusAfterInstructions.current = true;
    setInstructions("closed");
  }

  // Once closed (and the form rendered): focus the first input, else the button that opens them again.
  useEffect(() => {
    if (instructions !== "closed" || !focusAfterInstructions.current) return;
    focusAfterInstructions.current = false;
    const first = alwaysFields[0];
    const target = first ? document.getElementById(inputId(first.name)) : null;
    (target ?? document.getElementById("instructions-toggle"))?.focus();
  }, [instructions]);

  function change(update: (d: Draft) => Draft) {
    const current = draftRef.current;
    if (!current) return;
    const next = { ...update(current), updatedAt: Date.now() };
    draftRef.current = next;
    setDraft(next);
    void saveDraft(next);
  }

  async function fetchContext(reason: "start" | "resample") {
    setLoadingContext(true);
    setContextError(null);
    try {
      const { nextContext } = await request(NEXT_CONTEXT, { roundId: round.id });
      const now = Date.now();
      const base = draftRef.current ?? emptyDraft(username, task.code, round.id, now);
      // A new passage invalidates a QA answer span and span fields; typed inputs are kept.
      const fields = Object.fromEntries(Object.entries(base.fields).filter(([name]) => !spanNames.has(name)));
      change(() => ({ ...base, context: nextContext, fields, answer: qa ? null : base.answer, answerStart: qa ? null : base.answerStart, startedAt: now }));
      if (reason === "resample") setShown(null);
    } catch (error) {
      setContextError(describeError(error));
    } finally {
      setLoadingContext(false);
    }
  }

  // Restore the draft (with its context) or start one.
  useEffect(() => {
    let cancelled = false;
    void loadDraft(key).then((saved) => {
      if (cancelled) return;
      const initial = saved ?? emptyDraft(username, task.code, round.id, Date.now());
      draftRef.current = initial;
      setDraft(initial);
      if (!initial.context) void fetchContext("start");
    });
    return () => {
      cancelled = true;
    };
  }, [key]);

  // A queued submission of this page got delivered by the outbox: show its verdict.
  useEffect(
    () =>
      delivered.on((record) => {
        setShown((current) =>
          current?.kind === "queued" && current.clientId === record.clientId
            ? { kind: "verdict", view: record.view, clientId: record.clientId }
            : current,
        );
      }),
    [],
  );

  // After reconnecting, re-read the task (the round may have changed or closed).
  useEffect(() => reconnected.on(() => void loadTasks()), []);

  // Came back online with no context yet: fetch one.
  useEffect(() => {
    if (isOnline && draft && !draft.context && !loadingContext) void fetchContext("start");
  }, [isOnline]);

  function validate(d: Draft): FieldError[] {
    const problems: FieldError[] = [];
    const fieldProblems = validateValues(alwaysFields, d.fields, d.context?.fields ?? {});
    for (const [name, message] of Object.entries(fieldProblems)) problems.push({ field: `fields.${name}`, message });
    if (labelsOf(task.config).length && !d.label) problems.push({ field: "label", message: "Choose the label you intend." });
    if (qa) {
      if (!d.answer?.trim()) problems.push({ field: "answer", message: "Select the answer in the passage." });
      else if (d.answerStart === null) problems.push({ field: "answer", message: "The answer must be copied exactly from the passage." });
    }
    return problems;
  }

  function focusFirstError(problems: FieldError[]) {
    const first = problems[0]?.field ?? "";
    const id = first.startsWith("fields.") ? inputId(first.slice(7).split(".")[0]) : first === "label" ? null : first.startsWith("answer") ? "input-answer" : null;
    const element = id ? document.getElementById(id) : document.querySelector<HTMLInputElement>('input[name="label"]');
    element?.focus();
  }

  async function onSubmit() {
    const d = draftRef.current;
    if (!d?.context || busy) return;
    const problems = validate(d);
    setErrors(problems);
    if (problems.length) {
      focusFirstError(problems);
      return;
    }
    const fields = apiValues(alwaysFields, d.fields, d.context.fields);
    const input: CreateExampleInput = {
      roundId: round.id,
      contextId: d.context.id,
      fields,
      label: qa ? null : d.label,
      explanation: d.explanation,
      timeSpentMs: Math.max(0, Math.min(MAX_TIME_MS, Date.now() - d.startedAt)),
    };
    if (qa && passageName && d.answer !== null && d.answerStart !== null) {
      const passage = String(d.context.fields[passageName] ?? "");
      const span = apiAnswer(passage, { start: d.answerStart, end: d.answerStart + d.answer.length });
      input.answer = span.answer;
      input.answerStart = span.answerStart;
    }
    setBusy(true);
    try {
      if (d.sandbox) await submitSandbox(input, d);
      else await submitForReal(input);
    } finally {
      setBusy(false);
    }
  }

  async function submitSandbox(input: CreateExampleInput, d: Draft) {
    if (!online.get()) {
      setShown({ kind: "error", message: "Sandbox mode asks the model live: connect first. (Turn sandbox off to save the example for later.)" });
      return;
    }
    try {
      const { createExample: result } = await request(CREATE_EXAMPLE, { input: { ...input, sandbox: true, clientId: null } });
      if (result.__typename === "ExampleSubmitted") {
        setShown({ kind: "verdict", view: viewOfSubmission(result, true, d.label ?? d.answer), clientId: null });
      } else {
        setErrors(result.fields ?? []);
        setShown({ kind: "error", message: result.message });
      }
    } catch (error) {
      setShown({ kind: "error", message: describeError(error) });
    }
  }

  async function submitForReal(input: CreateExampleInput) {
    const clientId = newClientId();
    const outcome = await submitExample({ ...input, clientId }, { username, taskCode: task.code, taskName: task.name });
    if (outcome.kind === "refused") {
      // Written live: the annotator is here to fix it, so it does not stay in the outbox.
      await discardItem(clientId);
      const failure = outcome.item.failure!;
      setErrors(failure.fields);
      setShown({ kind: "error", message: failure.message });
      if (failure.code === "ROUND_CLOSED") void loadTasks();
      focusFirstError(failure.fields);
      return;
    }
    change((d) => clearedDraft(d, Date.now()));
    if (outcome.kind === "delivered") {
      setShown({ kind: "verdict", view: outcome.record.view, clientId });
    } else if (outcome.kind === "signIn") {
      setShown({ kind: "queued", clientId, reason: "Saved on this device. Your session expired: log in again to send it." });
    } else {
      setShown({ kind: "queued", clientId, reason: outcome.reason });
    }
  }

  function onVerdictChange(view: VerdictView) {
    setShown((current) => (current?.kind === "verdict" ? { ...current, view } : current));
  }

  function tryAgain() {
    setShown(null);
    setErrors([]);
    const first = alwaysFields[0];
    if (first) document.getElementById(inputId(first.name))?.focus();
  }

  const passage = qa && passageName && draft?.context ? String(draft.context.fields[passageName] ?? "") : null;
  const span = draft && draft.answer && draft.answerStart !== null ? { start: draft.answerStart, end: draft.answerStart + draft.answer.length } : null;

  return (
    <div class="annotate">
      <header class="page-head">
        <p class="crumbs"><a href={href("/")}>Tasks</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{task.name}</h1>
        <p class="lead">{task.description}</p>
        {instructionsHtml && instructions !== "first" && (
          <p>
            <button
              type="button"
              id="instructions-toggle"
              aria-expanded={instructions === "open"}
              aria-controls="task-instructions"
              onClick={() => (instructions === "open" ? closeInstructions() : setInstructions("open"))}
            >
              {instructions === "open" ? t("instructions.hide") : t("instructions.show")}
            </button>
          </p>
        )}
        {!currentToken() && <p class="note">Your session expired: <a href={href("/login?next=" + encodeURIComponent(`/tasks/${task.code}`))}>log in again</a> to send examples.</p>}
      </header>
      <div class="columns">
        <div class="col-main">
          {instructions !== "closed" && (
            <InstructionsPanel html={instructionsHtml} first={instructions === "first"} onDone={closeInstructions} />
          )}
          {draft?.context ? (
            <ContextPanel
              config={task.config}
              context={draft.context}
              passageField={passageName}
              span={span}
              onSelectSpan={qa ? (s) => change((d) => ({ ...d, answer: passage!.slice(s.start, s.end), answerStart: s.start })) : undefined}
            />
          ) : (
            <section class="card context" aria-labelledby="context-title">
              <h2 id="context-title">Context</h2>
              <p role="status">
                {loadingContext ? "Fetching a context…" : contextError
                  ? isOnline ? contextError : "You are offline and no context of this task is saved on this device yet. Connect once to fetch one."
                  : "…"}
              </p>
            </section>
          )}
          <div class="actions context-actions">
            <button type="button" onClick={() => void fetchContext("resample")} disabled={loadingContext || !isOnline}>
              {loadingContext ? "Fetching…" : "New context"}
            </button>
            {!isOnline && <span class="hint">New contexts need a connection.</span>}
          </div>
          {draft?.context && instructions !== "first" && (
            <ExampleForm
              config={task.config}
              fields={alwaysFields}
              draft={draft}
              passage={passage}
              errors={errors}
              busy={busy}
              online={isOnline}
              onChange={change}
              onSubmit={() => void onSubmit()}
            />
          )}
        </div>
        <aside class="col-side" aria-label="Verdict and round">
          <VerdictPanel
            shown={shown}
            online={isOnline}
            isQA={qa}
            claimMeta={{ username, taskCode: task.code, taskName: task.name, roundId: round.id }}
            fields={specs}
            contexts={draft?.context?.fields ?? {}}
            contextTitles={contextTitles(task.config)}
            onChange={onVerdictChange}
            onTryAgain={tryAgain}
          />
          <RoundStats taskCode={task.code} round={round} />
        </aside>
      </div>
    </div>
  );
}
