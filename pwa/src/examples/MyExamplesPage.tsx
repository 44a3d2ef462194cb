/**
 * "My examples": the viewer's examples with status and verdict, plus what still waits on this device. A conversation
 * with a generative target shows its last exchange, which expands to the whole transcript (pwa/src/transcript).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { MY_EXAMPLES } from "../api/documents";
import type { Example } from "../api/types";
import { session } from "../auth/session";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { outboxItems } from "../outbox/store";
import { delivered } from "../outbox/sync";
import { href } from "../router";
import { cacheGet, cachePut } from "../storage/db";
import { humanize } from "../tasks/config";
import { ClaimQuestion } from "../annotate/ClaimQuestion";
import { intendedOf, summaryOfExample } from "../annotate/verdict";
import { VerdictBadge } from "../ui/Verdict";
import { statusText } from "./status";
import { SUGGEST_TEXT } from "../suggest/text";
import { formatDateTime } from "../i18n/format";
import { slot } from "../i18n/slot";
import { EXAMPLES_TEXT as T } from "./text";
import { subscribe } from "../api/ws";
import { MY_EXAMPLE_UPDATES } from "./documents";
import { belongsOnLoadedPages, mergeExampleUpdate } from "./live";
import { LazyTranscriptPreview } from "../transcript/lazy";
import { isTranscriptInput, transcriptSummary } from "../transcript/transcript";

const PAGE = 20;

export function MyExamplesPage() {
  const username = useObservable(session)?.user.username ?? "";
  const items = useObservable(outboxItems).filter((item) => item.username === username);
  const [examples, setExamples] = useState<Example[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [status, setStatus] = useState("");
  const [live, setLive] = useState(false);
  const examplesRef = useRef<Example[] | null>(null);
  examplesRef.current = examples;
  const cacheKey = `myExamples/${username}`;

  async function load(after: string | null) {
    setStatus(T.loading);
    try {
      const { myExamples } = await request(MY_EXAMPLES, { first: PAGE, after });
      const page = myExamples.edges.map((edge) => edge.node);
      setExamples((current) => (after && current ? [...current, ...page] : page));
      setCursor(myExamples.pageInfo.endCursor);
      setHasMore(myExamples.pageInfo.hasNextPage);
      setStatus("");
      if (!after) await cachePut(cacheKey, page);
    } catch (error) {
      const cached = after ? undefined : await cacheGet<Example[]>(cacheKey);
      if (cached) setExamples((current) => current ?? cached);
      setStatus(cached ? T.savedCopy(describeError(error)) : describeError(error));
    }
  }

  useEffect(() => {
    void load(null);
    // Re-read after reconnecting, and when the outbox delivered examples (coalesced).
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(null), 300);
    };
    const offReconnect = reconnected.on(soon);
    const offDelivered = delivered.on(soon);
    // Outcomes, flags and retractions of the viewer's examples, pushed as they happen.
    const stop = subscribe(
      MY_EXAMPLE_UPDATES,
      {},
      ({ myExampleUpdates: { change, example } }) => {
        if (change === "LISTENING") setLive(true);
        if (!example) return;
        const merged = mergeExampleUpdate(examplesRef.current, example);
        if (merged) {
          examplesRef.current = merged;
          setExamples(merged);
        } else if (belongsOnLoadedPages(examplesRef.current, example)) soon(); // new to the list: read the first page again
      },
      () => setLive(false),
    );
    return () => {
      if (timer) clearTimeout(timer);
      offReconnect();
      offDelivered();
      stop();
    };
  }, [username]);

  const waiting = items.filter((item) => item.state === "pending").length;
  const failed = items.filter((item) => item.state === "failed").length;

  return (
    <section aria-labelledby="page-title" data-live={live ? "live" : "connecting"}>
      <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
      {(waiting > 0 || failed > 0) && (
        <p class="note">
          {waiting > 0 && T.stillWaiting(waiting)}
          {failed > 0 && T.couldNotSend(failed)}
          <a href={href("/outbox")}>{T.openOutbox}</a>
        </p>
      )}
      <p role="status" aria-live="polite" class="status-line">{status}</p>
      {examples && examples.length === 0 && <p>{slot(T.noneYet, { link: <a href={href("/")}>{T.pickTask}</a> })}</p>}
      {examples && examples.length > 0 && (
        <ul class="example-list">
          {examples.map((example) => (
            <li class="card example-row" key={example.id} data-client-id={example.clientId} data-status={example.status}
              data-retracted={String(example.retracted)} data-flagged={String(example.flagged)}>
              <div class="example-row-head">
                <VerdictBadge verdict={example.verdict} />
                <span class="status-tag" data-testid="example-status">{statusText(example)}</span>
                {example.assistance && (
                  <span class="hint" data-testid="example-assisted">
                    {example.assistance.edited ? SUGGEST_TEXT.assistedEdited : SUGGEST_TEXT.assisted}
                  </span>
                )}
                <span class="hint">
                  {example.round ? T.roundOf(example.round.task.name, example.round.number) : ""}
                  <time dateTime={example.createdAt}>{formatDateTime(example.createdAt)}</time>
                </span>
              </div>
              {isTranscriptInput(example.input) ? (
                <>
                  <LazyTranscriptPreview input={example.input} modelOutput={example.modelOutput} reader="self" idBase={`mine-${example.id}`} />
                  {example.verdict === "PENDING" && example.pendingReason && (
                    <p class="hint">{T.waitingForModel(example.pendingReason).trim()}</p>
                  )}
                </>
              ) : (
                <>
                  <p class="example-text" dir="auto">{inputText(example)}</p>
                  <p class="hint">
                    {slot(T.youSaid, { intended: <strong>{intendedText(example)}</strong> })}
                    {modelSaid(example) && slot(T.modelSaid, { model: <strong>{modelSaid(example)}</strong> })}
                    {example.verdict === "PENDING" && example.pendingReason && T.waitingForModel(example.pendingReason)}
                  </p>
                </>
              )}
              {example.verdict === "AWAITING_CLAIM" && !example.retracted && example.round && (
                <ClaimQuestion
                  exampleId={example.id}
                  summary={isTranscriptInput(example.input) ? transcriptSummary(example.input) : summaryOfExample(example)}
                  meta={{ username, taskCode: example.round.task.code, taskName: example.round.task.name, roundId: example.round.id }}
                  onClaimed={(claimed) => setExamples((current) => current?.map((e) => (e.id === claimed.example.id ? { ...e, ...claimed.example } : e)) ?? current)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {hasMore && <button type="button" onClick={() => void load(cursor)}>{T.showMore}</button>}
    </section>
  );
}

function inputText(example: Example): string {
  return Object.entries(example.input)
    .filter(([key, value]) => !["label", "answer", "answer_start"].includes(key) && typeof value === "string")
    .map(([, value]) => value as string)
    .join(" · ");
}

function intendedText(example: Example): string {
  const intended = intendedOf(example);
  if (intended === null) return "—";
  return typeof example.input.label === "string" ? humanize(intended) : intended;
}

function modelSaid(example: Example): string | null {
  const output = example.modelOutput as { label?: string; answer?: string } | null;
  if (!output) return null;
  if (typeof output.label === "string") return humanize(output.label);
  if (typeof output.answer === "string") return output.answer;
  return null;
}
