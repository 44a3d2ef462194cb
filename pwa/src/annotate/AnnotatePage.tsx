/**
 * Writing an example: the task's current round → a context (re-sample on demand) → the inputs and
 * intended label (or answer span) → submit → the live verdict. The draft is saved on every keystroke.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { CREATE_EXAMPLE, NEXT_CONTEXT } from "../api/documents";
import { fieldErrors, type CreateExampleInput, type FieldError, type Task } from "../api/types";
import { currentToken, session } from "../auth/session";
import { newClientId } from "../lib/uuid";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { fieldsShown, fieldTitle, parseFieldSpecs } from "../forms/specs";
import { apiValues, validateValues } from "../forms/values";
import { delivered, submitExample } from "../outbox/sync";
import { discardItem } from "../outbox/store";
import { href } from "../router";
import { contextTitles, isGenerative, isQA, labelName, labelsOf, passageField } from "../tasks/config";
import { loadTasks, tasksState } from "../tasks/store";
import { addAttempt, withView, type Attempt } from "./attempts";
import { Attempts } from "./Attempts";
import { useAttempts } from "./attemptStore";
import { ContextPanel } from "./ContextPanel";
import { clearedDraft, draftKey, emptyDraft, loadDraft, saveDraft, type Draft } from "./drafts";
import { ExampleForm, inputId } from "./ExampleForm";
import { acknowledge, browserStore, mustRead } from "./instructions";
import { InstructionsPanel } from "./InstructionsPanel";
import { RoundStats } from "./RoundStats";
import { apiAnswer } from "./spans";
import { ANNOTATE_TEXT as T } from "./text";
import { currentLocale } from "../i18n/runtime";
import { localizeTask } from "../i18n/taskText";
import { summaryOfExample, viewOfSubmission, type VerdictView } from "./verdict";
import { VERDICT_HEADING_ID, VerdictPanel, type Shown } from "./VerdictPanel";
import "./annotate.css";
import { lazyPage, lazyWidget } from "../lib/lazy";
import { hasBattle } from "../battle/config";
import { LazyInspirePanel } from "../suggest/lazy";
import { anyOffered, offeredSuggestions } from "../suggest/offered";

// The offline verdict (pwa/src/offline): its own chunk; the model runtime loads only when a model is prepared. The
// provisional verdict of a queued example shows in the verdict card, above the attempts; the panel below it.
const OfflineSection = lazyWidget<import("../offline/OfflineSection").Props>(() => import("../offline/OfflineSection").then((m) => m.OfflineSection));
const Provisional = lazyWidget<import("../offline/Provisional").Props>(() => import("../offline/Provisional").then((m) => m.Provisional));

// Generative tasks (kind "generative"): a chat with the round's target, in its own chunk (pwa/src/chat).
const ChatPage = lazyPage<{ task: Task }>(() => import("../chat/ChatPage").then((m) => m.ChatPage));
// Generative tasks with `generative.battle`: a side-by-side battle first (pwa/src/battle); `?mode=chat` is the chat.
const BattlePage = lazyPage<{ task: Task }>(() => import("../battle/BattlePage").then((m) => m.BattlePage));

const MAX_TIME_MS = 7 * 24 * 3600 * 1000;

/** After an answer: the focus goes to the verdict's heading (never left on <body>), without a scroll jump. */
function focusVerdict() {
  requestAnimationFrame(() => document.getElementById(VERDICT_HEADING_ID)?.focus({ preventScroll: true }));
}

export function AnnotatePage({ params, query }: { params: Record<string, string>; query?: URLSearchParams }) {
  const code = params.code;
  const tasks = useObservable(tasksState);
  const task = tasks.tasks?.find((t) => t.code === code);

  useEffect(() => {
    if (!tasks.tasks && !tasks.loading) void loadTasks();
  }, []);

  if (!task) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{T.pageFallbackTitle}</h1>
        <p role="status">{tasks.loading || !tasks.tasks ? T.loadingTask : tasks.error ?? T.noTask(code)}</p>
        <p><a href={href("/")}>{T.allTasks}</a></p>
      </section>
    );
  }
  if (!task.currentRound) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1} dir="auto">{localizeTask(task).name}</h1>
        <p>{T.noOpenRound}</p>
      </section>
    );
  }
  if (hasBattle(task.config) && query?.get("mode") !== "chat") {
    return <BattlePage key={`${task.code}/${task.currentRound.id}/battle`} task={task} />;
  }
  if (isGenerative(task.config)) return <ChatPage key={`${task.code}/${task.currentRound.id}`} task={task} />;
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
  // The attempts on the shown context: kept on the device, merged with the stored ones of earlier visits.
  const contextId = draft?.context?.id ?? null;
  const [attempts, setAttempts] = useAttempts(key, round.id, contextId);
  const passageName = passageField(task.config);
  const qa = isQA(task.config);
  const locale = currentLocale();
  // The registry's fields, with the task's translated display names for the UI locale.
  const specs = useMemo(() => {
    const local = localizeTask(task);
    return parseFieldSpecs(task.config).map((spec) => ({ ...spec, displayName: local.field(spec.name, fieldTitle(spec)) }));
  }, [task.config, locale]);
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
      // The first context of a fresh draft keeps what was typed; a new context starts a new example.
      const start = reason === "resample" ? clearedDraft(base, now) : base;
      const fields = Object.fromEntries(Object.entries(start.fields).filter(([name]) => !spanNames.has(name)));
      change(() => ({ ...start, context: nextContext, fields, answer: qa ? null : start.answer, answerStart: qa ? null : start.answerStart, startedAt: now }));
      if (reason === "resample") {
        setShown(null);
        setErrors([]);
      }
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
    if (labelsOf(task.config).length && !d.label) problems.push({ field: "label", message: T.chooseLabel });
    if (qa) {
      if (!d.answer?.trim()) problems.push({ field: "answer", message: T.selectAnswer });
      else if (d.answerStart === null) problems.push({ field: "answer", message: T.answerExact });
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
      suggestionId: d.suggestionId ?? null,
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
      else await submitForReal(input, d);
    } finally {
      setBusy(false);
    }
  }

  function remember(d: Draft, key: string, fields: Record<string, unknown>, state: Attempt["state"], sandbox: boolean) {
    const view = state.kind === "verdict" ? state.view : null;
    const text = view?.summary ?? summaryOfExample({ input: { ...fields, ...(qa ? { answer: d.answer } : { label: d.label }) } });
    const attempt: Attempt = {
      key,
      contextId: d.context?.id ?? "",
      clientId: sandbox ? null : key,
      exampleId: view?.exampleId ?? null,
      text,
      fields,
      sandbox,
      stored: false,
      state,
    };
    setAttempts((list) => addAttempt(list, attempt));
  }

  async function submitSandbox(input: CreateExampleInput, d: Draft) {
    if (!online.get()) {
      setShown({ kind: "error", message: T.sandboxNeedsConnection });
      return;
    }
    try {
      const { createExample: result } = await request(CREATE_EXAMPLE, { input: { ...input, sandbox: true, clientId: null } });
      if (result.__typename === "ExampleSubmitted") {
        const view = viewOfSubmission(result, true, d.label ?? d.answer);
        setShown({ kind: "verdict", view, clientId: null });
        remember(d, `sandbox-${newClientId()}`, input.fields, { kind: "verdict", view }, true);
        focusVerdict();
      } else {
        setErrors(fieldErrors(result));
        setShown({ kind: "error", message: result.message });
      }
    } catch (error) {
      setShown({ kind: "error", message: describeError(error) });
    }
  }

  async function submitForReal(input: CreateExampleInput, d: Draft) {
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
    // The text stays for an edited variant (a new context clears it); the clock restarts; the suggestion was used.
    change((current) => ({ ...current, startedAt: Date.now(), suggestionId: null }));
    let next: Shown;
    if (outcome.kind === "delivered") {
      next = { kind: "verdict", view: outcome.record.view, clientId };
      remember(d, clientId, input.fields, { kind: "verdict", view: outcome.record.view }, false);
    } else {
      const reason = outcome.kind === "signIn" ? T.queuedSignIn : outcome.reason;
      next = { kind: "queued", clientId, reason };
      remember(d, clientId, input.fields, { kind: "queued", reason }, false);
    }
    setShown(next);
    focusVerdict();
  }

  function onVerdictChange(view: VerdictView) {
    setShown((current) => (current?.kind === "verdict" && current.view.exampleId === view.exampleId ? { ...current, view } : current));
    setAttempts((list) => withView(list, view));
  }

  function focusFirstInput() {
    const first = alwaysFields[0];
    if (first) document.getElementById(inputId(first.name))?.focus();
  }

  function tryAgain() {
    setShown(null);
    setErrors([]);
    focusFirstInput();
  }

  /** Put an earlier attempt's text (and intended label) back into the form. */
  function reuse(attempt: Attempt) {
    const texts = Object.fromEntries(
      alwaysFields
        .filter((spec) => (spec.type === "text" || spec.type === "multiline_text") && typeof attempt.fields[spec.name] === "string")
        .map((spec) => [spec.name, attempt.fields[spec.name]]),
    );
    const intended = attempt.state.kind === "verdict" ? attempt.state.view.intended : null;
    const labels = labelsOf(task.config);
    change((d) => ({ ...d, fields: { ...d.fields, ...texts }, label: intended && labels.includes(intended) ? intended : d.label }));
    focusFirstInput();
  }

  /** A suggestion taken: its text into its field (and the label the generator meant, when it is one of the task's). */
  function acceptSuggestion(field: string, text: string, suggestionId: string, meant: string | null) {
    const labels = labelsOf(task.config);
    change((d) => ({ ...d, fields: { ...d.fields, [field]: text }, label: meant && labels.includes(meant) ? meant : d.label, suggestionId }));
    document.getElementById(inputId(field))?.focus();
  }

  const offered = offeredSuggestions(task.config);
  const passage = qa && passageName && draft?.context ? String(draft.context.fields[passageName] ?? "") : null;
  const span = draft && draft.answer && draft.answerStart !== null ? { start: draft.answerStart, end: draft.answerStart + draft.answer.length } : null;

  const fieldTitles = Object.fromEntries(specs.map((spec) => [spec.name, fieldTitle(spec)]));
  const newContext = (
    <button type="button" class="small new-context" onClick={() => void fetchContext("resample")} disabled={loadingContext || !isOnline}>
      {loadingContext ? T.fetching : T.newContext}
    </button>
  );

  return (
    <div class="annotate">
      <header class="page-head">
        <p class="crumbs"><a href={href("/")}>{T.crumbTasks}</a> <span aria-hidden="true">›</span></p>
        <div class="title-row">
          <h1 id="page-title" tabIndex={-1} dir="auto">{localizeTask(task).name}</h1>
          {instructionsHtml && instructions !== "first" && (
            <button
              type="button"
              class="small"
              id="instructions-toggle"
              aria-expanded={instructions === "open"}
              aria-controls="task-instructions"
              onClick={() => (instructions === "open" ? closeInstructions() : setInstructions("open"))}
            >
              {instructions === "open" ? T.instructionsHide : T.instructionsShow}
            </button>
          )}
        </div>
        {task.description && <p class="lead" dir="auto">{task.description}</p>}
        {!currentToken() && <p class="note">{T.sessionExpiredBefore} <a href={href("/login?next=" + encodeURIComponent(`/tasks/${task.code}`))}>{T.sessionExpiredLink}</a> {T.sessionExpiredAfter}</p>}
      </header>
      {draft?.sandbox && (
        <div class="sandbox-banner" role="status" data-testid="sandbox-banner">
          <p><strong>{T.sandboxBanner}</strong> <span class="detail">{T.sandboxBannerDetail}</span></p>
          <button type="button" class="small" onClick={() => change((d) => ({ ...d, sandbox: false }))}>{T.sandboxOff}</button>
        </div>
      )}
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
              actions={newContext}
            />
          ) : (
            <section class="card context" aria-labelledby="context-title">
              <div class="context-head">
                <h2 id="context-title">{T.contextTitle}</h2>
                {newContext}
              </div>
              <p role="status">
                {loadingContext ? T.fetchingContext : contextError
                  ? isOnline ? contextError : T.offlineNoContext
                  : "…"}
              </p>
            </section>
          )}
          {!isOnline && <p class="hint context-offline">{T.newContextOffline}</p>}
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
          {draft?.context && instructions !== "first" && anyOffered(offered) && offered.field && (
            <LazyInspirePanel
              roundId={round.id}
              contextId={draft.context.id}
              field={offered.field}
              draftText={String(draft.fields[offered.field] ?? "")}
              generator={offered.generator}
              perturbation={offered.perturbation}
              online={isOnline}
              labelText={(label) => labelName(task.config, label)}
              onAccept={(text, id, meant) => acceptSuggestion(offered.field!, text, id, meant)}
            />
          )}
        </div>
        <aside class="col-side" aria-label={T.sideLabel}>
          <VerdictPanel
            shown={shown}
            online={isOnline}
            isQA={qa}
            claimMeta={{ username, taskCode: task.code, taskName: task.name, roundId: round.id }}
            fields={specs}
            contexts={draft?.context?.fields ?? {}}
            contextTitles={contextTitles(task.config)}
            labelText={(label) => labelName(task.config, label)}
            onChange={onVerdictChange}
            onTryAgain={tryAgain}
            provisional={!qa && <Provisional roundId={round.id} shown={shown} context={draft?.context?.fields ?? {}} />}
          >
            <Attempts
              attempts={attempts}
              roundId={round.id}
              online={isOnline}
              fieldTitles={fieldTitles}
              onChange={onVerdictChange}
              onReuse={reuse}
            />
          </VerdictPanel>
          {!qa && <OfflineSection roundId={round.id} online={isOnline} />}
          <RoundStats taskCode={task.code} round={round} />
        </aside>
      </div>
    </div>
  );
}
