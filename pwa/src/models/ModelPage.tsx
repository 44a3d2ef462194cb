/** One model: its status and status log followed live (`modelUpdated`), its scores per dataset, publishing. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { formatDateTime } from "../i18n/format";
import { PUBLISH_MODEL } from "../api/documents";
import { subscribe } from "../api/ws";
import { formatMetric } from "../leaderboard/weights";
import { reconnected } from "../lib/network";
import type { PageProps } from "../routes";
import { href } from "../router";
import { InTheLoop, StatusBadge } from "./badges";
import { MODEL_WATCH, type ModelScore, type WatchedModel } from "./documents";
import { MODELS_TEXT as T } from "./text";
import "./models.css";

// Publishable once evaluated; a not ranked model too (it is listed when its task gets a scoring dataset).
const PUBLISHABLE = new Set(["evaluated", "not_ranked"]);

export function ModelPage({ params }: PageProps) {
  const id = params.id;
  const [model, setModel] = useState<WatchedModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const [publishMessage, setPublishMessage] = useState<string | null>(null);

  // modelUpdated starts with the model as it is now, so subscribing again is a re-read.
  useEffect(
    () =>
      subscribe(MODEL_WATCH, { modelId: id }, (data) => {
        setModel(data.modelUpdated);
        setError(null);
      }, setError),
    [id, generation],
  );
  useEffect(() => reconnected.on(() => setGeneration((g) => g + 1)), []);

  async function publish(published: boolean) {
    try {
      const { publishModel: result } = await request(PUBLISH_MODEL, { modelId: id, published });
      if (result.__typename === "ModelChanged") {
        setModel((current) => (current ? { ...current, ...result.model } : current));
        setPublishMessage(published ? T.publishedDone : T.unpublishedDone);
      } else setPublishMessage(result.message);
    } catch (problem) {
      setPublishMessage(describeError(problem));
    }
  }

  const log = model?.statusLog ?? [];
  return (
    <section aria-labelledby="page-title" class="models-page">
      <p class="crumbs"><a href={href("/models")}>{T.crumbsModels}</a> <span aria-hidden="true">›</span></p>
      <h1 id="page-title" tabIndex={-1}>{model ? model.name : T.modelFallbackTitle}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {!model ? <p role="status">{T.loading}</p> : (
        <div class="columns">
          <div class="col-main">
            <section class="card" aria-labelledby="status-title">
              <h2 id="status-title">{T.statusTitle}</h2>
              <p role="status" aria-live="polite" data-testid="model-status">
                <StatusBadge status={model.status} /> <InTheLoop rounds={model.inTheLoop ?? []} /> {model.task?.name}
              </p>
              {model.retrainedFromId && (
                <p data-testid="model-retrained-from">
                  <a href={href(`/models/${encodeURIComponent(model.retrainedFromId)}`)}>{T.retrainedFrom}</a>
                </p>
              )}
              <h3>{T.logTitle}</h3>
              {log.length === 0 ? <p class="hint">{T.logEmpty}</p> : (
                <ol class="status-log" data-testid="status-log">
                  {log.map((entry, i) => (
                    <li key={i} data-status={entry.status}>
                      <strong>{T.status[entry.status] ?? entry.status}</strong>{" "}
                      <time class="hint" dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                      {entry.message && <div class="log-message">{entry.message}</div>}
                    </li>
                  ))}
                </ol>
              )}
            </section>
            <Scores scores={model.scores ?? []} />
          </div>
          <aside class="col-side" aria-label={T.publishRegion}>
            <section class="card" aria-labelledby="publish-title">
              <h2 id="publish-title">{T.leaderboardTitle}</h2>
              <p class="hint">{model.published ? T.isPublished : T.notPublished}</p>
              <div class="actions">
                <button type="button" onClick={() => void publish(!model.published)} disabled={!PUBLISHABLE.has(model.status) && !model.published}>
                  {model.published ? T.unpublish : T.publish}
                </button>
                {model.task && <a href={href(`/leaderboard/${encodeURIComponent(model.task.code)}`)}>{T.openLeaderboard}</a>}
              </div>
              <p role="status" aria-live="polite" class="hint">{publishMessage}</p>
            </section>
          </aside>
        </div>
      )}
    </section>
  );
}

/** Scores per scoring dataset. On a phone each row becomes a block of labelled values (no sideways scrolling); the
 * explicit roles keep it a table for assistive technology whatever CSS display it gets. */
function Scores({ scores }: { scores: ModelScore[] }) {
  const c = T.columns;
  return (
    <section class="card" aria-labelledby="scores-title">
      <h2 id="scores-title">{T.scoresTitle}</h2>
      {scores.length === 0 ? <p class="hint">{T.scoresEmpty}</p> : (
        <table class="model-scores" data-testid="model-scores" role="table">
          <caption class="visually-hidden">{T.scoresCaption}</caption>
          <thead role="rowgroup">
            <tr role="row">
              <th role="columnheader" scope="col">{c.dataset}</th>
              <th role="columnheader" scope="col" class="num">{c.perf}</th>
              <th role="columnheader" scope="col" class="num">{c.throughput}</th>
              <th role="columnheader" scope="col" class="num">{c.memory}</th>
              <th role="columnheader" scope="col" class="num">{c.robustness}</th>
              <th role="columnheader" scope="col" class="num">{c.fairness}</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {scores.map((s) => (
              <tr key={s.dataset.id} role="row">
                <th scope="row" role="rowheader">{s.dataset.name}</th>
                <td role="cell" class="num" data-label={c.perf}>{formatMetric("PERF", s.perf)}</td>
                <td role="cell" class="num" data-label={c.throughput}>{formatMetric("THROUGHPUT", s.throughput)}</td>
                <td role="cell" class="num" data-label={c.memory}>{formatMetric("MEMORY", s.memoryGb)}</td>
                <td role="cell" class="num" data-label={c.robustness}>{formatMetric("ROBUSTNESS", s.robustness)}</td>
                <td role="cell" class="num" data-label={c.fairness}>{formatMetric("FAIRNESS", s.fairness)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
