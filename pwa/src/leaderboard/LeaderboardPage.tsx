/**
 * The Dynaboard leaderboard of a task: models ranked by Dynascore, with a slider per metric weight
 * and per scoring-dataset weight. Moving a slider re-ranks live (the query is debounced); the
 * current weights can be saved under a name (`saveLeaderboardConfig`) and loaded with ?config=NAME.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { LEADERBOARD, SAVE_LEADERBOARD_CONFIG } from "../api/documents";
import type { DatasetOverlap, LeaderboardConnection, LeaderboardRow, Metric } from "../api/types";
import type { PageProps } from "../routes";
import { href } from "../router";
import { TaskPicker } from "../ui/TaskPicker";
import {
  METRICS, METRIC_TEXT, WEIGHT_MAX, WEIGHT_MIN, WEIGHT_STEP, breakdown, breakdownText, clampWeight, datasetInputs, debounce,
  formatMetric, metricInputs, metricShares, metricWeightsFrom, shareText, weightsKey,
} from "./weights";
import { LEADERBOARD_TEXT as T } from "./text";
import "./leaderboard.css";

const DEBOUNCE_MS = 300;

export function LeaderboardIndexPage() {
  return (
    <TaskPicker
      title={T.indexTitle}
      lead={T.indexLead}
      pathFor={(code) => `/leaderboard/${encodeURIComponent(code)}`}
      linkText={T.openLeaderboard}
    />
  );
}

/** The page shows the connection's nodes as rows. */
type Board = Omit<LeaderboardConnection, "edges"> & { rows: LeaderboardRow[] };

const METRIC_KEY: Record<Metric, keyof LeaderboardRow["metrics"]> = {
  PERF: "perf", THROUGHPUT: "throughput", MEMORY: "memory", ROBUSTNESS: "robustness", FAIRNESS: "fairness",
};

export function LeaderboardPage({ params, query }: PageProps) {
  const code = params.code;
  const configName = query.get("config");
  const [board, setBoard] = useState<Board | null>(null);
  const [metricWeights, setMetricWeights] = useState<Record<Metric, number> | null>(null);
  const [datasetWeights, setDatasetWeights] = useState<Record<string, number>>({});
  const [datasetNames, setDatasetNames] = useState<Record<string, string>>({});
  const [overlaps, setOverlaps] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string>(T.loadingBoard);
  const [error, setError] = useState<string | null>(null);
  const [saveName, setSaveName] = useState(configName ?? "");
  const [saveMessage, setSaveMessage] = useState<{ text: string; ok: boolean; link?: string } | null>(null);
  const [exact, setExact] = useState(false);
  const sequence = useRef(0);
  const lastKey = useRef<string | null>(null);
  const exactRef = useRef(exact);
  exactRef.current = exact;

  async function load(metrics: Record<Metric, number> | null, datasets: Record<string, number> | null) {
    const id = ++sequence.current;
    setStatus(T.ranking);
    try {
      const { leaderboard } = await request(LEADERBOARD, {
        taskCode: code,
        metricWeights: metrics ? metricInputs(metrics) : null,
        datasetWeights: datasets && Object.keys(datasets).length ? datasetInputs(datasets) : null,
        configName: metrics ? null : configName,
        exactDynaboard: exactRef.current,
      });
      if (id !== sequence.current) return; // a newer query was sent meanwhile
      setBoard({ ...leaderboard, rows: leaderboard.edges.map((edge) => edge.node) });
      setError(null);
      if (!metrics) {
        // First answer: the sliders start at the weights the server used (defaults or a saved config).
        const initialMetrics = metricWeightsFrom(leaderboard.metricWeights);
        const initialDatasets = Object.fromEntries(leaderboard.datasetWeights.map((d) => [d.dataset.id, d.weight]));
        setMetricWeights(initialMetrics);
        setDatasetWeights(initialDatasets);
        lastKey.current = weightsKey(initialMetrics, initialDatasets);
      }
      setDatasetNames(Object.fromEntries(leaderboard.datasetWeights.map((d) => [d.dataset.id, d.dataset.name])));
      setOverlaps(Object.fromEntries((leaderboard.datasetOverlap ?? []).map((o) => [o.datasetId, overlapText(o)])));
      setStatus(T.ranked(leaderboard.totalCount));
    } catch (problem) {
      if (id !== sequence.current) return;
      setError(describeError(problem));
      setStatus("");
    }
  }

  useEffect(() => {
    void load(null, null);
  }, [code, configName]);

  const requery = useMemo(
    () =>
      debounce((metrics: Record<Metric, number>, datasets: Record<string, number>) => {
        const key = weightsKey(metrics, datasets);
        if (key === lastKey.current) return;
        lastKey.current = key;
        void load(metrics, datasets);
      }, DEBOUNCE_MS),
    [code],
  );
  useEffect(() => () => requery.cancel(), [requery]);

  function toggleExact(next: boolean) {
    setExact(next);
    exactRef.current = next;
    void load(metricWeights, metricWeights ? datasetWeights : null);
  }

  function setMetric(metric: Metric, value: number) {
    if (!metricWeights) return;
    const next = { ...metricWeights, [metric]: clampWeight(value) };
    setMetricWeights(next);
    setSaveMessage(null);
    requery(next, datasetWeights);
  }

  function setDataset(id: string, value: number) {
    if (!metricWeights) return;
    const next = { ...datasetWeights, [id]: clampWeight(value) };
    setDatasetWeights(next);
    setSaveMessage(null);
    requery(metricWeights, next);
  }

  async function save(event: Event) {
    event.preventDefault();
    if (!metricWeights) return;
    const name = saveName.trim();
    if (!name) {
      setSaveMessage({ text: T.nameMissing, ok: false });
      document.getElementById("config-name")?.focus();
      return;
    }
    try {
      const { saveLeaderboardConfig: result } = await request(SAVE_LEADERBOARD_CONFIG, {
        taskCode: code, name, metricWeights: metricInputs(metricWeights), datasetWeights: datasetInputs(datasetWeights),
      });
      if (result.__typename === "LeaderboardConfigSaved") {
        const link = `${location.origin}${location.pathname}#/leaderboard/${encodeURIComponent(code)}?config=${encodeURIComponent(result.name)}`;
        setSaveMessage({ text: T.savedAs(result.name), ok: true, link });
      } else {
        setSaveMessage({ text: result.message, ok: false });
      }
    } catch (problem) {
      setSaveMessage({ text: describeError(problem), ok: false });
    }
  }

  const shares = metricWeights ? metricShares(metricWeights) : null;
  return (
    <div class="leaderboard">
      <header class="page-head">
        <p class="crumbs"><a href={href("/leaderboard")}>{T.indexTitle}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{T.title(code)}</h1>
        <p class="lead">{T.lead}</p>
        {configName && <p class="note" dir="auto">{T.showingConfig(configName)}</p>}
      </header>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="ranking-title">
            <h2 id="ranking-title">{T.rankingTitle}</h2>
            <p role="status" aria-live="polite" class="status-line" data-testid="leaderboard-status">{status}</p>
            {error && <p class="error" role="alert">{error}</p>}
            {board && board.rows.length === 0 && <p>{T.noneRanked}</p>}
            {board && board.rows.length > 0 && (
              <>
              <p class="hint scroll-cue" id="scroll-cue">{T.scrollCue}</p>
              <div class="table-wrap" tabIndex={0} role="region" aria-label={T.tableRegion} aria-describedby="scroll-cue">
                <table data-testid="leaderboard-table">
                  <caption class="visually-hidden">{T.tableCaption}</caption>
                  <thead>
                    <tr>
                      <th scope="col" class="num">{T.rank}</th>
                      <th scope="col">{T.model}</th>
                      <th scope="col" class="num">{T.dynascore}</th>
                      {METRICS.map((m) => <th scope="col" class="num" key={m}>{METRIC_TEXT[m]}</th>)}
                    </tr>
                  </thead>
                  <tbody>
                    {board.rows.map((row) => (
                      <tr key={row.model.id} data-model={row.model.name}>
                        <td class="num">{row.rank}</td>
                        <th scope="row" class="model-name">
                          {row.model.name}
                          {row.model.owner && <span class="hint">{T.byOwner(row.model.owner.username)}</span>}
                          {row.model.inTheLoop?.length ? (
                            <span class="hint in-the-loop">{T.inTheLoop(row.model.inTheLoop.join(", "))}</span>
                          ) : null}
                          <Breakdown contributions={row.contributions} />
                        </th>
                        <td class="num dynascore">{formatMetric("dynascore", row.dynascore)}</td>
                        {METRICS.map((m) => <td class="num" key={m}>{formatMetric(m, row.metrics[METRIC_KEY[m]])}</td>)}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              </>
            )}
            <label class="check exact-toggle">
              <input type="checkbox" checked={exact} aria-describedby="exact-hint" onChange={(e) => toggleExact(e.currentTarget.checked)} />
              {T.exactDynaboard}
            </label>
            <p class="hint" id="exact-hint">{T.exactHint}</p>
          </section>
        </div>
        <aside class="col-side" aria-label={T.weightsRegion}>
          <section class="card" aria-labelledby="weights-title">
            <h2 id="weights-title">{T.metricWeights}</h2>
            {metricWeights && shares ? (
              <div class="weights">
                {METRICS.map((metric) => (
                  <Slider key={metric} id={`weight-${metric.toLowerCase()}`} label={METRIC_TEXT[metric]} value={metricWeights[metric]}
                    detail={shareText(metric, shares[metric], board?.metricsInEffect, board?.totalCount ?? 0)}
                    onChange={(v) => setMetric(metric, v)} />
                ))}
              </div>
            ) : <p class="hint">{T.loading}</p>}
            {Object.keys(datasetWeights).length > 0 && (
              <>
                <h3>{T.datasetWeights}</h3>
                <div class="weights">
                  {Object.entries(datasetWeights).map(([id, weight]) => (
                    <Slider key={id} id={`dataset-${id}`} label={datasetNames[id] ?? id} value={weight} detail={overlaps[id] ?? ""} onChange={(v) => setDataset(id, v)} />
                  ))}
                </div>
              </>
            )}
          </section>
          <section class="card" aria-labelledby="save-title">
            <h2 id="save-title">{T.saveTitle}</h2>
            <form class="inline-form" onSubmit={(e) => void save(e)}>
              <label for="config-name">{T.configName}</label>
              <input id="config-name" type="text" dir="auto" maxLength={100} value={saveName} onInput={(e) => setSaveName(e.currentTarget.value)} />
              <button type="submit" class="primary" disabled={!metricWeights}>{T.saveConfig}</button>
            </form>
            <p role="status" aria-live="polite" class={saveMessage ? (saveMessage.ok ? "notice-ok" : "error") : ""} data-testid="save-status">
              {saveMessage?.text}
              {saveMessage?.link && <a class="share-link" href={saveMessage.link}>{saveMessage.link}</a>}
            </p>
          </section>
        </aside>
      </div>
    </div>
  );
}

/** A model's score split by metric: a bar (for the eye) and the same shares in words (for everyone). */
function Breakdown({ contributions }: { contributions: LeaderboardRow["contributions"] }) {
  const parts = breakdown(contributions);
  return (
    <span class="breakdown">
      <span class="visually-hidden">{T.breakdown}: </span>
      {parts ? (
        <>
          <span class="score-bar" aria-hidden="true">
            {parts.map(({ metric, share }) => <span key={metric} class={`part part-${metric.toLowerCase()}`} style={{ width: `${share * 100}%` }} />)}
          </span>
          <span class="score-parts">{breakdownText(parts)}</span>
        </>
      ) : <span class="score-parts">{T.noBreakdown}</span>}
    </span>
  );
}

/** How many of a dataset's rows some model may have trained on, or that repeat a collected example. */
function overlapText(o: DatasetOverlap): string {
  if (o.rowsOverlappingTrainingData === null && o.rowsDuplicatingCollected === null) return "";
  const parts = [];
  if (o.rowsOverlappingTrainingData) parts.push(T.overlapTraining(o.rowsOverlappingTrainingData));
  if (o.rowsDuplicatingCollected) parts.push(T.overlapCollected(o.rowsDuplicatingCollected));
  return parts.length ? parts.join("; ") : T.noOverlap;
}

function Slider({ id, label, value, detail, onChange }: {
  id: string;
  label: string;
  value: number;
  detail: string;
  onChange: (value: number) => void;
}) {
  return (
    <div class="weight">
      <label for={id}>{label}</label>
      <output for={id} aria-hidden="true">{value}</output>
      <input
        id={id}
        type="range"
        min={WEIGHT_MIN}
        max={WEIGHT_MAX}
        step={WEIGHT_STEP}
        value={value}
        aria-valuetext={detail ? `${value} (${detail})` : String(value)}
        onInput={(e) => onChange(Number(e.currentTarget.value))}
      />
      {detail && <span class="hint">{detail}</span>}
    </div>
  );
}
