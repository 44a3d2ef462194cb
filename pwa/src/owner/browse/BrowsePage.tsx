/**
 * Task owners look through what a round collected (roundExamples: filters, full-text search, "Load more" with the
 * cursor) and through the task's flag queue (flaggedExamples); both show the same cards and bulk actions
 * (ExampleCards.tsx).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { Connection, Example } from "../../api/types";
import { session } from "../../auth/session";
import { reconnected } from "../../lib/network";
import { useObservable } from "../../lib/observable";
import { href, navigate } from "../../router";
import type { PageProps } from "../../routes";
import { useTaskDetail } from "../../tasks/detail";
import { FLAGGED_EXAMPLES, ROUND_EXAMPLES } from "./documents";
import { ExampleCards } from "./ExampleCards";
import { FilterForm } from "./FilterForm";
import { appendPage, FLAG_QUEUE, type ExampleFilterInput } from "./filters";
import { BROWSE_TEXT as T } from "./text";
import { TaskState } from "../TaskState";

const PAGE_SIZE = 20;

/** A paged list: the first page again whenever `deps` change or the network comes back, then "Load more". */
function usePages(fetch: (after: string | null) => Promise<Connection<Example>>, deps: readonly unknown[]) {
  const [examples, setExamples] = useState<Example[] | undefined>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;

  async function load(after: string | null) {
    const call = ++latest.current;
    setBusy(true);
    try {
      const page = await fetchRef.current(after);
      if (call !== latest.current) return;
      const nodes = page.edges.map((e) => e.node);
      setExamples((list) => (after && list ? appendPage(list, nodes) : nodes));
      setCursor(page.pageInfo.endCursor);
      setMore(page.pageInfo.hasNextPage);
      setError(null);
    } catch (problem) {
      if (call === latest.current) setError(describeError(problem));
    } finally {
      if (call === latest.current) setBusy(false);
    }
  }
  useEffect(() => {
    void load(null);
    return reconnected.on(() => void load(null));
  }, deps);
  return { examples, setExamples, more, error, busy, loadMore: () => load(cursor) };
}

function Results({ pages, emptyText, filter }: { pages: ReturnType<typeof usePages>; emptyText: string; filter: ExampleFilterInput | null }) {
  const { examples, setExamples, more, error, busy, loadMore } = pages;
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">{T.resultsTitle}</h2>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="hint" data-testid="browse-count">
        {examples === undefined ? T.loading : T.shown(examples.length, more)}
      </p>
      {examples !== undefined && <ExampleCards examples={examples} onChange={setExamples} emptyText={emptyText} filter={filter} />}
      {more && <button type="button" disabled={busy} onClick={() => void loadMore()}>{T.loadMore}</button>}
    </section>
  );
}

function useTask(code: string) {
  const username = useObservable(session)?.user.username ?? "";
  return useTaskDetail(code, username);
}

function Crumbs({ code }: { code: string }) {
  return <p class="crumbs"><a href={href(`/owner/${encodeURIComponent(code)}`)}>{T.backToTask}</a> <span aria-hidden="true">›</span></p>;
}

export function BrowsePage({ params, query }: PageProps) {
  const code = params.code;
  const detail = useTask(code);
  const rounds = [...(detail.task?.rounds.edges.map((e) => e.node) ?? [])].sort((a, b) => b.number - a.number);
  const roundId = query.get("round") ?? detail.task?.currentRound?.id ?? rounds[0]?.id ?? null;
  const round = rounds.find((r) => r.id === roundId) ?? null;
  const [filter, setFilter] = useState<ExampleFilterInput | null>(null);
  const pages = usePages(
    async (after) => {
      if (!roundId) return { pageInfo: { hasNextPage: false, endCursor: null }, edges: [] };
      return (await request(ROUND_EXAMPLES, { roundId, filter, first: PAGE_SIZE, after })).roundExamples;
    },
    [roundId, filter],
  );
  const base = `/owner/${encodeURIComponent(code)}`;

  return (
    <section aria-labelledby="page-title" class="browse">
      <Crumbs code={code} />
      <h1 id="page-title" tabIndex={-1}>{T.browseTitle(detail.task?.name ?? code, round?.number ?? null)}</h1>
      <TaskState status={detail.task?.status} reviewNote={detail.task?.reviewNote} />
      <p class="lead">{T.browseLead}</p>
      <p><a href={href(`${base}/flags`)}>{T.flagQueueLink}</a></p>
      {!detail.task ? (
        <p role="status">{detail.loading ? T.loadingTask : detail.missing ? T.missingTask(code) : detail.error}</p>
      ) : !roundId ? <p>{T.noRound}</p> : (
        <>
          {rounds.length > 1 && (
            <div class="field">
              <label for="browse-round">{T.roundLabel}</label>
              <select id="browse-round" value={roundId}
                onChange={(e) => navigate(`${base}/browse?round=${encodeURIComponent(e.currentTarget.value)}`, { replace: true })}>
                {rounds.map((r) => <option key={r.id} value={r.id}>{T.roundOption(r.number)}</option>)}
              </select>
            </div>
          )}
          <FilterForm onApply={setFilter} />
          <Results pages={pages} emptyText={T.none} filter={filter} />
        </>
      )}
    </section>
  );
}

export function FlagQueuePage({ params }: PageProps) {
  const code = params.code;
  const detail = useTask(code);
  const pages = usePages(
    async (after) => (await request(FLAGGED_EXAMPLES, { taskCode: code, first: PAGE_SIZE, after })).flaggedExamples,
    [code],
  );
  return (
    <section aria-labelledby="page-title" class="browse">
      <Crumbs code={code} />
      <h1 id="page-title" tabIndex={-1}>{T.flagTitle(detail.task?.name ?? code)}</h1>
      <TaskState status={detail.task?.status} reviewNote={detail.task?.reviewNote} />
      <p class="lead">{T.flagLead}</p>
      <Results pages={pages} emptyText={T.noFlags} filter={FLAG_QUEUE} />
    </section>
  );
}
