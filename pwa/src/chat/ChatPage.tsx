/**
 * The annotate page of a generative task (its own chunk, loaded by annotate/AnnotatePage.tsx for `kind: "generative"`):
 * the goal and the scenario, the conversation with the round's target as it streams (Stop while it writes, Retry on a
 * failed or stopped last reply), the composer, and submitting the conversation for its verdict. The conversation's
 * id is kept in the draft, so a reload (or a reconnect) resumes it from the server.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, GraphQLError, request } from "../api/client";
import { fieldErrors, type ErrorResult, type FieldError, type Task } from "../api/types";
import { subscribe } from "../api/ws";
import { currentToken, session } from "../auth/session";
import { draftKey, type ChatDraft, type ChatResult } from "../annotate/drafts";
import { LazyRoundAttackStats } from "../attack/lazy";
import { acknowledge, browserStore, mustRead } from "../annotate/instructions";
import { InstructionsPanel } from "../annotate/InstructionsPanel";
import { ANNOTATE_TEXT as AT } from "../annotate/text";
import { fieldsShown, fieldTitle, parseFieldSpecs } from "../forms/specs";
import { apiValues, validateValues } from "../forms/values";
import { focusField } from "../forms/FormFields";
import { currentLocale } from "../i18n/runtime";
import { localizeTask } from "../i18n/taskText";
import { newClientId } from "../lib/uuid";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { contextTitles, humanize } from "../tasks/config";
import { loadTasks } from "../tasks/store";
import { generativeOf } from "./config";
import { hasBattle } from "../battle/config";
import {
  CONVERSATION, CONVERSATION_EXAMPLE, REPLY_STREAM, RETRY_REPLY, SEND_MESSAGE, STOP_REPLY, SUBMIT_CONVERSATION,
  type ConversationSubmitted,
} from "./documents";
import {
  announce, applyChunk, canSubmit, messageProblem, messagesLeft, reread, sendBlock, storedJudgeScores, streamingTurn,
  withTurn, type Announcement, type Conversation, type Turn,
} from "./stream";
import { Brief } from "./Brief";
import { Composer, COMPOSER_ID } from "./Composer";
import { ChatVerdict, INPUT_PREFIX, SubmitPanel, VERDICT_TITLE_ID } from "./SubmitPanel";
import { CHAT_TEXT as T } from "./text";
import { Transcript } from "./Transcript";
import { useTalkDraft } from "./useTalkDraft";
import { LazyInspirePanel } from "../suggest/lazy";
import { offeredSuggestions } from "../suggest/offered";
import "../annotate/annotate.css";
import "./chat.css";

const MAX_TIME_MS = 7 * 24 * 3600 * 1000;

export function emptyChat(): ChatDraft {
  return { conversationId: null, message: "", pending: null, categories: [], modelFailed: null, submitClientId: null, result: null };
}

function focusComposer() {
  requestAnimationFrame(() => document.getElementById(COMPOSER_ID)?.focus({ preventScroll: true }));
}

export function ChatPage({ task }: { task: Task }) {
  const round = task.currentRound!;
  const username = useObservable(session)?.user.username ?? "";
  const isOnline = useObservable(online);
  const locale = currentLocale();
  const local = useMemo(() => localizeTask(task), [task, locale]);
  const settings = useMemo(() => generativeOf(task.config), [task.config]);
  const specs = useMemo(
    () => parseFieldSpecs(task.config).map((spec) => ({ ...spec, displayName: local.field(spec.name, fieldTitle(spec)) })),
    [task.config, local],
  );
  const inputFields = useMemo(() => fieldsShown(specs, "always"), [specs]);
  const key = draftKey(username, task.code, round.id);

  const [conversation, setConversationState] = useState<Conversation | null>(null);
  const conversationRef = useRef<Conversation | null>(null);
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const [composerError, setComposerError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [submitErrors, setSubmitErrors] = useState<FieldError[]>([]);
  const [submitMessage, setSubmitMessage] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [briefOpen, setBriefOpen] = useState(true);

  const instructionsHtml = task.instructionsHtml ?? "";
  const [instructions, setInstructions] = useState<"first" | "open" | "closed">(() =>
    mustRead(browserStore(), username, task.code, instructionsHtml) ? "first" : "closed",
  );
  useEffect(() => {
    if (mustRead(browserStore(), username, task.code, instructionsHtml)) setInstructions("first");
  }, [instructionsHtml]);
  function closeInstructions() {
    if (instructions === "first") acknowledge(browserStore(), username, task.code, instructionsHtml);
    setInstructions("closed");
    requestAnimationFrame(() => (document.getElementById(COMPOSER_ID) ?? document.getElementById("instructions-toggle"))?.focus());
  }

  const { draft, draftRef, change, loadingContext, contextError, fetchContext } = useTalkDraft({
    key,
    username,
    taskCode: task.code,
    roundId: round.id,
    isOnline,
    idOf: (d) => d.chat?.conversationId,
    shownId: () => conversationRef.current?.id,
    refresh: (id) => refresh(id),
    fresh: (d) => ({ ...d, chat: emptyChat() }),
    onResume: () => setBriefOpen(false),
  });
  const chat = draft?.chat ?? emptyChat();
  const result = chat.result;


  function changeChat(patch: Partial<ChatDraft>) {
    change((d) => ({ ...d, chat: { ...(d.chat ?? emptyChat()), ...patch } }));
  }

  function setConversation(next: Conversation | null) {
    conversationRef.current = next;
    setConversationState(next);
  }

  /** A turn changed (a chunk, a stop, a re-read): the live region says a reply once, when it is complete. */
  function changeTurn(id: string, update: (turn: Turn) => Turn) {
    const current = conversationRef.current;
    const before = current?.turns.find((t) => t.id === id);
    if (!current || !before) return;
    const after = update(before);
    if (after === before) return;
    setConversation(withTurn(current, after));
    setAnnouncements((log) => announce(log, before, after));
    if (before.status === "GENERATING" && after.status !== "GENERATING") void refresh(current.id);
  }

  /** Read the conversation again (after a reply ended, a reconnect, a reload): the server's copy is the truth. */
  async function refresh(id: string): Promise<void> {
    try {
      const { conversation: stored } = await request(CONVERSATION, { id });
      const before = conversationRef.current;
      if (before && before.id !== id) return; // another conversation started meanwhile
      const next = reread(before, stored);
      setConversation(next);
      setAnnouncements((log) => next.turns.reduce((acc, t) => announce(acc, before?.turns.find((o) => o.id === t.id), t), log));
    } catch (error) {
      if (error instanceof GraphQLError && error.codes.includes("NOT_FOUND")) {
        setConversation(null);
        changeChat({ conversationId: null, pending: null });
        setNotice(T.conversationGone);
      }
    }
  }


  // The reply being written: follow its stream. The first event of each (re)subscription carries the whole text so far.
  const streaming = streamingTurn(conversation);
  const streamingId = streaming?.id ?? null;
  useEffect(() => {
    if (!streamingId) return undefined;
    let first = true;
    const stop = subscribe(
      REPLY_STREAM,
      { turnId: streamingId },
      (data) => {
        const isFirst = first;
        first = false;
        changeTurn(streamingId, (turn) => applyChunk(turn, data.replyStream, isFirst));
      },
      (message) => {
        setNotice(message);
        const id = conversationRef.current?.id;
        if (id) void refresh(id);
      },
      () => (first = true),
    );
    const off = reconnected.on(() => (first = true));
    return () => {
      stop();
      off();
    };
  }, [streamingId]);

  // A submitted conversation waiting for its judge: follow its example until the verdict.
  const pendingExample = result?.verdict === "PENDING" ? result.exampleId : null;
  useEffect(() => {
    if (!pendingExample) return undefined;
    return subscribe(CONVERSATION_EXAMPLE, { exampleId: pendingExample }, ({ exampleUpdated: example }) => {
      if (example.verdict === "PENDING") return;
      const current = draftRef.current?.chat?.result;
      if (!current) return;
      changeChat({
        result: { ...current, verdict: example.verdict, message: messageOf(example.verdict), judgeScores: storedJudgeScores(example.modelOutput) },
      });
    });
  }, [pendingExample]);

  function refused(result: ErrorResult): string {
    if (result.__typename === "RoundClosedError") void loadTasks();
    return result.message;
  }

  async function send() {
    const d = draftRef.current;
    if (!d?.context || sending) return;
    const current = conversationRef.current;
    const block = sendBlock(current, settings.turnLimit);
    if (block) {
      setComposerError(block === "streaming" ? T.waitForReply : block === "noneLeft" ? T.noMessagesLeft : T.submittedNote);
      return;
    }
    const text = d.chat?.message ?? "";
    const problem = messageProblem(text, settings.maxMessageLength);
    if (problem) {
      setComposerError(problem);
      document.getElementById(COMPOSER_ID)?.focus();
      return;
    }
    // The same text sent again after no answer keeps its UUID: the server stores it once.
    const pending = d.chat?.pending?.message === text ? d.chat.pending : { clientId: newClientId(), message: text };
    changeChat({ pending });
    setComposerError(null);
    setNotice("");
    setSending(true);
    try {
      const { sendMessage: sent } = await request(SEND_MESSAGE, {
        input: { roundId: round.id, contextId: d.context.id, conversationId: current?.id ?? null, clientId: pending.clientId, message: text },
      });
      if (sent.__typename === "MessageSent") {
        setConversation(reread(conversationRef.current, sent.conversation));
        const typed = draftRef.current?.chat?.message ?? "";
        changeChat({ conversationId: sent.conversation.id, pending: null, message: typed === text ? "" : typed });
        setBriefOpen(false);
        requestAnimationFrame(() => {
          const replies = document.querySelectorAll('[data-testid="model-reply"]');
          const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          replies[replies.length - 1]?.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
        });
      } else {
        const field = fieldErrors(sent).find((f) => f.field === "message");
        if (field) setComposerError(field.message);
        else setNotice(refused(sent));
        changeChat({ pending: null });
      }
    } catch (error) {
      setNotice(describeError(error));
    } finally {
      setSending(false);
      focusComposer();
    }
  }

  async function stop() {
    const turn = streamingTurn(conversationRef.current);
    if (!turn || stopping) return;
    setStopping(true);
    try {
      const { stopReply: answer } = await request(STOP_REPLY, { turnId: turn.id });
      if (answer.__typename === "ReplyChanged") {
        const stored = answer.turn;
        if (stored.status !== "GENERATING") changeTurn(turn.id, (t) => ({ ...stored, truncated: t.truncated }));
      } else {
        setNotice(refused(answer));
      }
    } catch (error) {
      setNotice(describeError(error));
    } finally {
      setStopping(false);
      focusComposer();
    }
  }

  async function retry(turn: Turn) {
    if (retrying) return;
    setRetrying(true);
    setNotice("");
    try {
      const { retryReply: answer } = await request(RETRY_REPLY, { turnId: turn.id });
      if (answer.__typename === "ReplyChanged") {
        const current = conversationRef.current;
        if (current) setConversation(withTurn(current, answer.turn));
      } else {
        setNotice(refused(answer));
      }
    } catch (error) {
      setNotice(describeError(error));
    } finally {
      setRetrying(false);
      focusComposer();
    }
  }

  async function submit() {
    const d = draftRef.current;
    const current = conversationRef.current;
    if (!d || !current || submitting || !canSubmit(current)) return;
    const c = d.chat ?? emptyChat();
    const problems: FieldError[] = [];
    for (const [name, message] of Object.entries(validateValues(inputFields, d.fields, d.context?.fields ?? {}))) {
      problems.push({ field: `fields.${name}`, message });
    }
    if (settings.decider === "author" && c.modelFailed === null) problems.push({ field: "modelFailed", message: T.chooseFailed });
    setSubmitErrors(problems);
    setSubmitMessage("");
    if (problems.length) {
      focusProblem(problems[0].field);
      return;
    }
    const clientId = c.submitClientId ?? newClientId();
    changeChat({ submitClientId: clientId });
    setSubmitting(true);
    try {
      const { submitConversation: answer } = await request(SUBMIT_CONVERSATION, {
        input: {
          conversationId: current.id,
          clientId,
          categories: c.categories,
          fields: inputFields.length ? apiValues(inputFields, d.fields, d.context?.fields ?? {}) : null,
          explanation: d.explanation,
          timeSpentMs: Math.max(0, Math.min(MAX_TIME_MS, Date.now() - d.startedAt)),
          modelFailed: settings.decider === "author" ? c.modelFailed : null,
          suggestionId: c.suggestionId ?? null,
        },
      });
      if (answer.__typename === "ExampleSubmitted") {
        const submitted: ConversationSubmitted = answer;
        const shown: ChatResult = {
          exampleId: submitted.example?.id ?? null,
          verdict: submitted.verdict,
          message: submitted.message,
          judgeScores: storedJudgeScores(submitted.example?.modelOutput),
        };
        changeChat({ result: shown, submitClientId: null });
        setConversation({ ...current, exampleId: shown.exampleId ?? "submitted", messagesLeft: 0 });
        requestAnimationFrame(() => document.getElementById(VERDICT_TITLE_ID)?.focus());
      } else {
        const fields = fieldErrors(answer);
        setSubmitErrors(fields);
        setSubmitMessage(refused(answer));
        if (answer.__typename !== "InputError") changeChat({ submitClientId: null });
        if (fields[0]) focusProblem(fields[0].field);
      }
    } catch (error) {
      setSubmitMessage(describeError(error));
    } finally {
      setSubmitting(false);
    }
  }

  function focusProblem(field: string) {
    if (field.startsWith("fields.")) focusField(field.slice(7).split(".")[0], INPUT_PREFIX);
    else if (field === "modelFailed") document.querySelector<HTMLInputElement>('input[name="model-failed"]')?.focus();
    else if (field === "categories") document.querySelector<HTMLInputElement>('input[name="category"]')?.focus();
    else document.getElementById(field === "explanation" ? "chat-explanation" : COMPOSER_ID)?.focus();
  }

  function startOver() {
    const current = conversationRef.current;
    if (current && current.turns.length && !current.exampleId && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setConversation(null);
    setAnnouncements([]);
    setSubmitErrors([]);
    setSubmitMessage("");
    setNotice("");
    setComposerError(null);
    setBriefOpen(true);
    void fetchContext("new").then(focusComposer);
  }

  const left = messagesLeft(conversation, settings.turnLimit);
  const block = sendBlock(conversation, settings.turnLimit);
  const message = chat.message;
  const categoryName = (category: string) => local.label(category, humanize(category));
  const titles = contextTitles(task.config);
  const contextFields = draft?.context ? Object.entries(draft.context.fields) : [];
  const storedScores = result?.judgeScores ?? [];
  const blockHint = !isOnline
    ? T.offline
    : block === "streaming" ? T.waitForReply : block === "noneLeft" ? T.noMessagesLeft : block === "submitted" ? T.submittedNote : "";

  const newConversation = confirming ? (
    <div class="note confirm-new" role="group" aria-labelledby="chat-discard-question">
      <p id="chat-discard-question">{T.discardQuestion}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={startOver}>{T.discard}</button>
        <button type="button" onClick={() => setConfirming(false)}>{T.cancel}</button>
      </div>
    </div>
  ) : (
    <button type="button" onClick={startOver} disabled={loadingContext || !isOnline || !!streaming}>{T.newConversation}</button>
  );

  return (
    <div class="annotate chat">
      <header class="page-head">
        <p class="crumbs"><a href={href("/")}>{AT.crumbTasks}</a> <span aria-hidden="true">›</span></p>
        <div class="title-row">
          <h1 id="page-title" tabIndex={-1} dir="auto">{local.name}</h1>
          {instructionsHtml && instructions !== "first" && (
            <button type="button" class="chat-small" id="instructions-toggle" aria-expanded={instructions === "open"}
              aria-controls="task-instructions" onClick={() => (instructions === "open" ? closeInstructions() : setInstructions("open"))}>
              {instructions === "open" ? AT.instructionsHide : AT.instructionsShow}
            </button>
          )}
        </div>
        {task.description && <p class="lead" dir="auto" data-testid="task-description">{task.description}</p>}
        {!currentToken() && (
          <p class="note">{AT.sessionExpiredBefore} <a href={href("/login?next=" + encodeURIComponent(`/tasks/${task.code}`))}>{AT.sessionExpiredLink}</a> {AT.sessionExpiredAfter}</p>
        )}
        {/* A battle task's chat mode (?mode=chat): the way back to its battles, and their leaderboard. */}
        {hasBattle(task.config) && (
          <p data-testid="chat-battle-links">
            <a href={href(`/tasks/${task.code}`)}>{T.backToBattles}</a>{" · "}
            <a href={href(`/leaderboard/${encodeURIComponent(task.code)}/battles`)}>{T.battleLeaderboard}</a>
          </p>
        )}
      </header>
      <div class="columns">
        <div class="col-main">
          {instructions !== "closed" && <InstructionsPanel html={instructionsHtml} first={instructions === "first"} onDone={closeInstructions} />}
          <Brief
            open={briefOpen}
            onToggle={() => setBriefOpen(!briefOpen)}
            goal={settings.goal}
            modeHint={settings.mode === "prompt" ? T.modePrompt : T.modeChat(settings.turnLimit)}
            contextFields={contextFields}
            titles={titles}
            status={draft?.context ? null : loadingContext ? T.fetchingScenario : contextError ? (isOnline ? contextError : T.offlineNoScenario) : "…"}
          >
            {newConversation}
          </Brief>

          {instructions !== "first" && (
            <section class="card chat-box" aria-labelledby="chat-title">
              <Transcript
                conversation={conversation}
                threshold={settings.judge?.threshold ?? null}
                storedScores={storedScores}
                retrying={retrying}
                online={isOnline}
                onRetry={(turn) => void retry(turn)}
              />
              {!result && (
                <Composer
                  message={message}
                  maxLength={settings.maxMessageLength}
                  left={left}
                  error={composerError}
                  blockHint={blockHint}
                  canSend={block === null && isOnline && !!draft?.context}
                  hasContext={!!draft?.context}
                  streaming={!!streaming}
                  stopping={stopping}
                  sending={sending}
                  onInput={(text) => {
                    setComposerError(null);
                    changeChat({ message: text });
                  }}
                  onSend={() => void send()}
                  onStop={() => void stop()}
                />
              )}
              <p role="status" class={notice ? "error" : "visually-hidden"} data-testid="chat-notice">{notice}</p>
            </section>
          )}
          {instructions !== "first" && !result && !conversation?.turns.length && draft?.context && offeredSuggestions(task.config).generator && (
            <LazyInspirePanel
              opening
              roundId={round.id}
              contextId={draft.context.id}
              field="message"
              draftText={message}
              generator
              perturbation={false}
              online={isOnline}
              onAccept={(text, suggestionId) => {
                changeChat({ message: text, suggestionId });
                focusComposer();
              }}
            />
          )}
          {/* Each reply, once, when it is complete (the streaming bubble itself is not live). */}
          <div class="visually-hidden" aria-live="polite" aria-atomic="false" data-testid="chat-announcements">
            {announcements.map((a) => <p key={a.key}>{a.text}</p>)}
          </div>
        </div>
        <aside class="col-side" aria-label={T.submitTitle}>
          {result ? (
            <ChatVerdict result={result} threshold={settings.judge?.threshold ?? null}>
              <div class="actions">{newConversation}</div>
            </ChatVerdict>
          ) : (
            instructions !== "first" && draft && (
              <SubmitPanel
                settings={settings}
                chat={chat}
                fields={inputFields}
                values={draft.fields}
                explanation={draft.explanation}
                contexts={draft.context?.fields ?? {}}
                categoryName={categoryName}
                errors={submitErrors}
                message={submitMessage}
                ready={canSubmit(conversation)}
                busy={submitting}
                online={isOnline}
                onChat={changeChat}
                onField={(name, value) => change((d) => ({ ...d, fields: { ...d.fields, [name]: value } }))}
                onExplanation={(explanation) => change((d) => ({ ...d, explanation }))}
                onSubmit={() => void submit()}
              />
            )
          )}
          <LazyRoundAttackStats taskCode={task.code} config={task.config} round={round} />
        </aside>
      </div>
    </div>
  );
}

function messageOf(verdict: ChatResult["verdict"]): string {
  return verdict === "FOOLED" ? AT.messageFooled : verdict === "NOT_FOOLED" ? AT.messageNotFooled : AT.messagePending;
}
