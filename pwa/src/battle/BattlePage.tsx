/**
 * A side-by-side battle (its own chunk, loaded by annotate/AnnotatePage.tsx for a generative task with
 * `generative.battle`): the goal and the scenario, one prompt, every side's reply streaming at once under an anonymous
 * label ("Model A", "Model B"…), side by side from 700 px and stacked on a phone, a Stop per side while it writes;
 * once every reply ended, the vote ("A is better", "Tie", "Both are bad"…), then each side's model revealed and
 * "New battle". The battle's id and the UUIDs of its prompt and vote are kept in the draft: a reload resumes the
 * battle, and a resend after a lost answer is stored once.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, GraphQLError, request } from "../api/client";
import { fieldErrors, type ErrorResult, type Task } from "../api/types";
import { subscribe } from "../api/ws";
import { currentToken, session } from "../auth/session";
import { draftKey, type BattleDraft } from "../annotate/drafts";
import { ANNOTATE_TEXT as AT } from "../annotate/text";
import { Brief } from "../chat/Brief";
import { Composer, COMPOSER_ID } from "../chat/Composer";
import { REPLY_STREAM, STOP_REPLY } from "../chat/documents";
import { messageProblem } from "../chat/stream";
import { generativeOf } from "../chat/config";
import { CHAT_TEXT as CT } from "../chat/text";
import { useTalkDraft } from "../chat/useTalkDraft";
import { currentLocale } from "../i18n/runtime";
import { localizeTask } from "../i18n/taskText";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { newClientId } from "../lib/uuid";
import { href, navigate } from "../router";
import { contextTitles } from "../tasks/config";
import { loadTasks } from "../tasks/store";
import { BubbleText } from "../transcript/Bubble";
import {
  announceSide, applySideChunk, canVote, completeRatings, ratingSpec, refusalText, rereadBattle, revealText, voteOptions,
  voteProblems, withSide, writingSides, type Announcement, type Battle, type BattleChoice, type BattleSide,
} from "./battle";
import { BATTLE, CONTINUE_BATTLE, START_BATTLE, VOTE_BATTLE } from "./documents";
import { BattleResult, RESULT_ID, SideRatings } from "./VoteParts";
import { BATTLE_TEXT as T } from "./text";
import "../annotate/annotate.css";
import "../chat/chat.css";
import "../transcript/bubbles.css";
import "./battle.css";

export function emptyBattle(): BattleDraft {
  return { battleId: null, message: "", pending: null, vote: null };
}

function focusComposer() {
  requestAnimationFrame(() => document.getElementById(COMPOSER_ID)?.focus({ preventScroll: true }));
}

export function BattlePage({ task }: { task: Task }) {
  const round = task.currentRound!;
  const username = useObservable(session)?.user.username ?? "";
  const isOnline = useObservable(online);
  const locale = currentLocale();
  const local = useMemo(() => localizeTask(task), [task, locale]);
  const settings = useMemo(() => generativeOf(task.config), [task.config]);
  const rating = useMemo(() => ratingSpec(task.config), [task.config]);
  const key = draftKey(username, task.code, round.id);

  const [battle, setBattleState] = useState<Battle | null>(null);
  const battleRef = useRef<Battle | null>(null);
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const [composerError, setComposerError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState<string | null>(null);
  const [voting, setVoting] = useState(false);
  const [choice, setChoice] = useState<BattleChoice | null>(null);
  const [voteError, setVoteError] = useState("");
  const [ratings, setRatings] = useState<Record<string, number | null>>({});
  const [continuing, setContinuing] = useState<string | null>(null);
  const [continueError, setContinueError] = useState("");
  const [briefOpen, setBriefOpen] = useState(true);

  const { draft, draftRef, change, loadingContext, contextError, fetchContext } = useTalkDraft({
    key,
    username,
    taskCode: task.code,
    roundId: round.id,
    isOnline,
    idOf: (d) => d.battle?.battleId,
    shownId: () => battleRef.current?.id,
    refresh: (id) => refresh(id),
    fresh: (d) => ({ ...d, battle: emptyBattle() }),
    onResume: () => setBriefOpen(false),
  });
  const state = draft?.battle ?? emptyBattle();

  function changeBattle(patch: Partial<BattleDraft>) {
    change((d) => ({ ...d, battle: { ...(d.battle ?? emptyBattle()), ...patch } }));
  }

  function setBattle(next: Battle | null) {
    battleRef.current = next;
    setBattleState(next);
  }

  /** A side changed (a chunk, a stop, a re-read): the live region says each side once, when its reply is complete. */
  function changeSide(turnId: string, update: (side: BattleSide) => BattleSide) {
    const current = battleRef.current;
    const before = current?.sides.find((s) => s.turnId === turnId);
    if (!current || !before) return;
    const after = update(before);
    if (after === before) return;
    const next = withSide(current, after);
    setBattle(next);
    setAnnouncements((log) => announceSide(log, before, after));
    if (before.status === "GENERATING" && after.status !== "GENERATING" && writingSides(next).length === 0) void refresh(current.id);
  }

  /** Read the battle again (every reply ended, a reconnect, a reload): the server's copy is the truth. */
  async function refresh(id: string): Promise<void> {
    try {
      const { battle: stored } = await request(BATTLE, { id });
      const before = battleRef.current;
      if (before && before.id !== id) return;
      const next = rereadBattle(before, stored);
      setBattle(next);
      setAnnouncements((log) => next.sides.reduce((acc, s) => announceSide(acc, before?.sides.find((o) => o.turnId === s.turnId), s), log));
    } catch (error) {
      if (error instanceof GraphQLError && error.codes.includes("NOT_FOUND")) {
        setBattle(null);
        changeBattle({ battleId: null, pending: null, vote: null });
        setNotice(T.battleGone);
      }
    }
  }


  // Every side being written: follow its stream (the first event of each (re)subscription carries the text so far).
  const writing = writingSides(battle).map((s) => s.turnId);
  const writingKey = writing.join(",");
  useEffect(() => {
    if (!writing.length) return undefined;
    const stops = writing.map((turnId) => {
      let first = true;
      const stop = subscribe(
        REPLY_STREAM,
        { turnId },
        (data) => {
          const isFirst = first;
          first = false;
          changeSide(turnId, (side) => applySideChunk(side, data.replyStream, isFirst));
        },
        (message) => {
          setNotice(message);
          const id = battleRef.current?.id;
          if (id) void refresh(id);
        },
        () => (first = true),
      );
      const off = reconnected.on(() => (first = true));
      return () => {
        stop();
        off();
      };
    });
    return () => stops.forEach((stop) => stop());
  }, [writingKey]);

  function refused(result: ErrorResult): string {
    if (result.__typename === "RoundClosedError") void loadTasks();
    return refusalText(result);
  }

  async function send() {
    const d = draftRef.current;
    if (!d?.context || sending || battleRef.current) return;
    const text = d.battle?.message ?? "";
    const problem = messageProblem(text, settings.maxMessageLength);
    if (problem) {
      setComposerError(problem);
      document.getElementById(COMPOSER_ID)?.focus();
      return;
    }
    // The same prompt sent again after no answer keeps its UUID: the server starts one battle.
    const pending = d.battle?.pending?.message === text ? d.battle.pending : { clientId: newClientId(), message: text };
    changeBattle({ pending });
    setComposerError(null);
    setNotice("");
    setSending(true);
    try {
      const { startBattle: started } = await request(START_BATTLE, {
        input: { roundId: round.id, contextId: d.context.id, clientId: pending.clientId, message: text },
      });
      if (started.__typename === "BattleStarted") {
        const fresh = rereadBattle(battleRef.current, started.battle);
        setBattle(fresh);
        // A reply that ended before this answer came (a fast model) is said once, as if it had been seen writing.
        setAnnouncements((log) => fresh.sides.reduce((acc, s) => announceSide(acc, { ...s, status: "GENERATING" }, s), log));
        changeBattle({ battleId: started.battle.id, pending: null, vote: null });
        setChoice(null);
        setBriefOpen(false);
        // The composer (and its button) is gone: the focus goes to the replies' heading, not to <body>.
        requestAnimationFrame(() => document.getElementById("battle-replies-title")?.focus());
      } else {
        const field = fieldErrors(started).find((f) => f.field === "message");
        if (field) setComposerError(field.message);
        else setNotice(refused(started));
        if (started.__typename !== "RateLimitedError") changeBattle({ pending: null });
      }
    } catch (error) {
      setNotice(describeError(error));
    } finally {
      setSending(false);
    }
  }

  async function stop(side: BattleSide) {
    if (stopping) return;
    setStopping(side.turnId);
    try {
      const { stopReply: answer } = await request(STOP_REPLY, { turnId: side.turnId });
      if (answer.__typename === "ReplyChanged") {
        const stored = answer.turn;
        if (stored.status !== "GENERATING") {
          changeSide(side.turnId, (s) => ({ ...s, reply: stored.reply, status: stored.status, error: stored.error }));
        }
      } else {
        setNotice(refused(answer));
      }
    } catch (error) {
      setNotice(describeError(error));
    } finally {
      setStopping(null);
    }
  }

  async function vote() {
    const current = battleRef.current;
    if (!current || voting || !canVote(current)) return;
    const kept = draftRef.current?.battle?.vote;
    const chosen = choice ?? (kept?.choice as BattleChoice | undefined) ?? null;
    // A task that rates each side: every side rated; the choice may then be left to the ratings.
    const given = rating ? completeRatings(current.sides, ratings) : null;
    if (rating && !given) {
      setVoteError(T.rateEvery);
      document.querySelector<HTMLInputElement>(".battle-rating input")?.focus();
      return;
    }
    if (!chosen && !given) {
      setVoteError(T.chooseVote);
      document.querySelector<HTMLInputElement>('input[name="battle-choice"]')?.focus();
      return;
    }
    // The same vote sent again after no answer keeps its UUID: it is stored once.
    const same = kept && kept.choice === chosen && JSON.stringify(kept.ratings ?? null) === JSON.stringify(given);
    const pending = same ? kept : { clientId: newClientId(), choice: chosen, ratings: given };
    changeBattle({ vote: pending });
    setVoteError("");
    setVoting(true);
    try {
      const { voteBattle: answer } = await request(VOTE_BATTLE, {
        input: { battleId: current.id, clientId: pending.clientId, choice: chosen, ratings: given },
      });
      if (answer.__typename === "BattleVoted") {
        setBattle(rereadBattle(battleRef.current, answer.battle));
        changeBattle({ vote: null });
        requestAnimationFrame(() => document.getElementById(RESULT_ID)?.focus());
      } else {
        const fields = voteProblems(fieldErrors(answer));
        setVoteError(fields ? `${answer.message} ${fields}` : refused(answer));
        if (answer.__typename !== "RateLimitedError") changeBattle({ vote: null });
        if (answer.__typename === "ConflictError") void refresh(current.id);
      }
    } catch (error) {
      setVoteError(describeError(error));
    } finally {
      setVoting(false);
    }
  }

  /** Go on talking to a side the author preferred: its conversation becomes the draft's chat, opened in chat mode. */
  async function continueWith(side: BattleSide) {
    const current = battleRef.current;
    if (!current || continuing) return;
    const kept = draftRef.current?.battle?.continued;
    const pending = kept?.side === side.label ? kept : { clientId: newClientId(), side: side.label };
    changeBattle({ continued: pending });
    setContinueError("");
    setContinuing(side.label);
    try {
      const { continueBattle: answer } = await request(CONTINUE_BATTLE, {
        input: { battleId: current.id, clientId: pending.clientId, side: side.label },
      });
      if (answer.__typename === "BattleContinued") {
        const d = draftRef.current;
        if (!d) return;
        const chat = { conversationId: answer.conversation.id, message: "", pending: null, categories: [], modelFailed: null, submitClientId: null, result: null };
        await change((current) => ({ ...current, chat, battle: { ...(current.battle ?? emptyBattle()), continued: null } }));
        navigate(`/tasks/${task.code}?mode=chat`);
      } else {
        setContinueError(refused(answer));
        changeBattle({ continued: null });
        if (answer.__typename === "ConflictError") void refresh(current.id);
      }
    } catch (error) {
      setContinueError(describeError(error));
    } finally {
      setContinuing(null);
    }
  }

  function newBattle() {
    setBattle(null);
    setRatings({});
    setContinueError("");
    setAnnouncements([]);
    setNotice("");
    setVoteError("");
    setChoice(null);
    setComposerError(null);
    setBriefOpen(true);
    void fetchContext("new").then(focusComposer);
  }

  const titles = contextTitles(task.config);
  const contextFields = draft?.context ? Object.entries(draft.context.fields) : [];
  const streaming = writing.length > 0;
  const blockHint = !isOnline ? T.offline : "";
  const voted = battle?.vote ?? null;
  const shownChoice = choice ?? (state.vote?.choice as BattleChoice | undefined) ?? null;

  return (
    <div class="annotate chat battle">
      <header class="page-head">
        <p class="crumbs"><a href={href("/")}>{AT.crumbTasks}</a> <span aria-hidden="true">›</span></p>
        <div class="title-row">
          <h1 id="page-title" tabIndex={-1} dir="auto">{local.name}</h1>
        </div>
        {task.description && <p class="lead" dir="auto" data-testid="task-description">{task.description}</p>}
        {!currentToken() && (
          <p class="note">{AT.sessionExpiredBefore} <a href={href("/login?next=" + encodeURIComponent(`/tasks/${task.code}`))}>{AT.sessionExpiredLink}</a> {AT.sessionExpiredAfter}</p>
        )}
        <p>
          <a href={href(`/tasks/${task.code}?mode=chat`)}>{T.chatInstead}</a>{" · "}
          <a href={href(`/leaderboard/${encodeURIComponent(task.code)}/battles`)}>{T.leaderboard}</a>
        </p>
      </header>
      <Brief
        open={briefOpen}
        onToggle={() => setBriefOpen(!briefOpen)}
        goal={settings.goal}
        modeHint={T.modeHint}
        contextFields={contextFields}
        titles={titles}
        status={draft?.context ? null : loadingContext ? CT.fetchingScenario : contextError ? (isOnline ? contextError : CT.offlineNoScenario) : "…"}
      >
        {battle && (
          <button type="button" onClick={newBattle} disabled={loadingContext || !isOnline || streaming}>{T.newBattle}</button>
        )}
      </Brief>

      <section class="card chat-box battle-box" aria-labelledby="battle-replies-title">
        {battle ? (
          <>
            <p class="battle-prompt" dir="auto" data-testid="battle-prompt">{battle.prompt}</p>
            <h2 id="battle-replies-title" tabIndex={-1}>{T.repliesTitle}</h2>
            <ol class="battle-sides" data-testid="battle-sides" data-count={battle.sides.length}>
              {battle.sides.map((side) => (
                <Side key={side.turnId} side={side} stopping={stopping === side.turnId} onStop={() => void stop(side)} />
              ))}
            </ol>
          </>
        ) : (
          <>
            <h2 id="battle-replies-title" class="visually-hidden">{T.repliesTitle}</h2>
            <p class="hint transcript-empty">{T.repliesEmpty}</p>
            <Composer
              message={state.message}
              maxLength={settings.maxMessageLength}
              left={1}
              leftText={T.composerNote}
              error={composerError}
              blockHint={blockHint}
              canSend={isOnline && !!draft?.context}
              hasContext={!!draft?.context}
              streaming={false}
              stopping={false}
              sending={sending}
              onInput={(text) => {
                setComposerError(null);
                changeBattle({ message: text });
              }}
              onSend={() => void send()}
              onStop={() => undefined}
            />
          </>
        )}
        <p role="status" class={notice ? "error" : "visually-hidden"} data-testid="battle-notice">{notice}</p>
      </section>

      {battle && !voted && (
        <form class="card battle-vote" noValidate onSubmit={(event) => { event.preventDefault(); void vote(); }}>
          {rating && (
            <SideRatings spec={rating} sides={battle.sides} values={ratings} disabled={!canVote(battle)}
              onChange={(label, value) => { setRatings((r) => ({ ...r, [label]: value })); setVoteError(""); }} />
          )}
          <fieldset aria-describedby={voteError ? "battle-vote-error" : canVote(battle) ? undefined : "battle-vote-wait"}>
            <legend>{T.voteLegend}</legend>
            {!canVote(battle) && <p class="hint" id="battle-vote-wait">{T.voteWait}</p>}
            <div class="choice-row">
              {voteOptions(battle).map((option) => (
                <label class="choice" key={option.choice}>
                  <input type="radio" name="battle-choice" value={option.choice} checked={shownChoice === option.choice}
                    disabled={!canVote(battle)} onChange={() => { setChoice(option.choice); setVoteError(""); }} />
                  <span>{option.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {voteError && <p class="field-error" id="battle-vote-error" role="alert">{voteError}</p>}
          {!isOnline && <p class="hint">{T.offline}</p>}
          <div class="actions">
            <button type="submit" class="primary" disabled={!canVote(battle) || !isOnline} aria-disabled={voting ? "true" : undefined}>
              {voting ? T.voting : T.vote}
            </button>
          </div>
        </form>
      )}

      {battle && voted && (
        <BattleResult battle={battle} taskCode={task.code} continuing={continuing} continueError={continueError}
          canStart={!loadingContext && isOnline} online={isOnline} onContinue={(side) => void continueWith(side)} onNewBattle={newBattle} />
      )}

      {/* Each side, once, when its reply is complete (the replies themselves are not live). */}
      <div class="visually-hidden" aria-live="polite" aria-atomic="false" data-testid="battle-announcements">
        {announcements.map((a) => <p key={a.key}>{a.text}</p>)}
      </div>
    </div>
  );
}

function Side({ side, stopping, onStop }: { side: BattleSide; stopping: boolean; onStop: () => void }) {
  const writing = side.status === "GENERATING";
  const headingId = `battle-side-${side.label}`;
  const revealed = revealText(side);
  return (
    <li class="battle-side bubble from-model" data-testid="battle-side" data-label={side.label} data-status={side.status}
      aria-busy={writing ? "true" : undefined}>
      <h3 class="who" id={headingId}>{T.side(side.label)}</h3>
      {(side.reply || !writing) && <BubbleText text={side.reply || T.emptyReply} testId="battle-reply" />}
      {writing && <p class="hint writing">{T.writing}</p>}
      {side.status === "STOPPED" && <p class="hint reply-note">{T.stoppedNote}</p>}
      {side.status === "FAILED" && <p class="error reply-note" dir="auto">{side.error ? T.failedNote(side.error) : T.failedNoReason}</p>}
      {side.truncated && <p class="hint reply-note">{T.truncatedNote}</p>}
      {revealed && <p class="battle-reveal" dir="auto"><strong>{revealed}</strong></p>}
      {writing && (
        <div class="actions">
          <button type="button" class="danger" aria-label={T.stopName(side.label)} onClick={onStop}
            aria-disabled={stopping ? "true" : undefined}>
            {stopping ? T.stopping : T.stop}
          </button>
        </div>
      )}
    </li>
  );
}
