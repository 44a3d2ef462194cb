/**
 * Task owners: a link to create a task (owner/create/), open a round with its target models, add contexts
 * to a round, upload datasets (JSONL, multipart), see MER / vMER per round as a plain SVG chart, and per
 * round: export it or close it (RoundActions.tsx).
 */
import { useState } from "preact/hooks";
import { describeError, request, requestUpload } from "../api/client";
import { ADD_CONTEXTS, CREATE_DATASET, CREATE_ROUND, OWNER_TASKS } from "../api/documents";
import type { Dataset, RoundDetail } from "../api/types";
import { session } from "../auth/session";
import { useObservable } from "../lib/observable";
import type { PageProps } from "../routes";
import { href } from "../router";
import { formatRate } from "../tasks/config";
import { useTaskDetail } from "../tasks/detail";
import { CHART, pathOf, points, yOf, type RoundRates } from "./chart";
import { RoundActions } from "./RoundActions";
import { errorText, Status, type Message } from "./status";
import { useOwnerQuery } from "./useOwnerQuery";

export function OwnerIndexPage() {
  const { data: tasks, error } = useOwnerQuery(
    async () => (await request(OWNER_TASKS, { first: 100 })).tasks.edges.map((e) => e.node),
    [],
  );
  const owned = tasks?.filter((t) => t.viewerIsOwner) ?? [];
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>Your tasks</h1>
      <p class="lead">Create tasks, open rounds, add contexts and datasets, and follow how often the model is fooled.</p>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="owned-title">
            <h2 id="owned-title">Tasks you own</h2>
            {error && <p class="error" role="alert">{error}</p>}
            {tasks === undefined ? <p role="status">Loading…</p> : owned.length === 0 ? <p class="hint">You do not own any task.</p> : (
              <ul>
                {owned.map((t) => <li key={t.id}><a href={href(`/owner/${encodeURIComponent(t.code)}`)}>{t.name}</a> <span class="hint">({t.code})</span></li>)}
              </ul>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label="New task">
          <section class="card" aria-labelledby="create-title">
            <h2 id="create-title">Create a task</h2>
            <p class="hint">Describe it in a form (or as JSON) with a live preview, and open its first round with a served model.</p>
            <p><a href={href("/new-task")} data-testid="new-task-link">Create a task</a></p>
          </section>
        </aside>
      </div>
    </section>
  );
}

export function OwnerTaskPage({ params }: PageProps) {
  const code = params.code;
  const username = useObservable(session)?.user.username ?? "";
  const detail = useTaskDetail(code, username);
  const task = detail.task;
  const [targets, setTargets] = useState("");
  const [roundMessage, setRoundMessage] = useState<Message>(null);
  const [contexts, setContexts] = useState("");
  const [contextsMessage, setContextsMessage] = useState<Message>(null);
  const [datasetName, setDatasetName] = useState("");
  const [datasetFile, setDatasetFile] = useState<File | null>(null);
  const [access, setAccess] = useState<Dataset["access"]>("SCORING");
  const [weight, setWeight] = useState("1");
  const [roundNumber, setRoundNumber] = useState("");
  const [datasetMessage, setDatasetMessage] = useState<Message>(null);

  if (!task) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>Task</h1>
        <p role="status">{detail.loading ? "Loading the task…" : detail.missing ? `There is no task “${code}”.` : detail.error}</p>
      </section>
    );
  }
  const rounds = task.rounds.edges.map((e) => e.node);
  const current = task.currentRound;

  async function openRound(event: Event) {
    event.preventDefault();
    const targetModels = targets.split(",").map((t) => t.trim()).filter(Boolean).map((t) => {
      const [name, version = ""] = t.split(":");
      return { name: name.trim(), version: version.trim() };
    });
    try {
      const { createRound: result } = await request(CREATE_ROUND, { input: { taskCode: code, targetModels } });
      if (result.__typename === "RoundCreated") {
        setRoundMessage({ text: `Round ${result.round.number} is open.`, ok: true });
        await detail.reload();
      } else setRoundMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setRoundMessage({ text: describeError(problem), ok: false });
    }
  }

  async function addContexts(event: Event) {
    event.preventDefault();
    if (!current) return;
    const lines = contexts.split("\n").map((l) => l.trim()).filter(Boolean);
    const parsed: { fields: Record<string, unknown>; tag: string | null }[] = [];
    for (const [i, line] of lines.entries()) {
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        const fields = value.fields && typeof value.fields === "object" ? (value.fields as Record<string, unknown>) : value;
        parsed.push({ fields, tag: typeof value.tag === "string" ? value.tag : null });
      } catch {
        setContextsMessage({ text: `Line ${i + 1} is not valid JSON.`, ok: false });
        return;
      }
    }
    if (!parsed.length) {
      setContextsMessage({ text: "Write one context per line, as JSON.", ok: false });
      return;
    }
    try {
      const { addContexts: result } = await request(ADD_CONTEXTS, { input: { roundId: current.id, contexts: parsed } });
      if (result.__typename === "ContextsAdded") {
        setContextsMessage({ text: `${result.count} context${result.count === 1 ? "" : "s"} added to round ${current.number}.`, ok: true });
        setContexts("");
      } else setContextsMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setContextsMessage({ text: describeError(problem), ok: false });
    }
  }

  async function createDataset(event: Event) {
    event.preventDefault();
    if (!datasetFile) {
      setDatasetMessage({ text: "Choose a JSONL file.", ok: false });
      return;
    }
    try {
      const { createDataset: result } = await requestUpload(
        CREATE_DATASET,
        { taskCode: code, name: datasetName.trim(), file: null, access, weight: Number(weight) || 0, roundNumber: roundNumber ? Number(roundNumber) : null },
        { file: datasetFile },
      );
      if (result.__typename === "DatasetCreated") {
        setDatasetMessage({ text: `Dataset “${result.dataset.name}” created with ${result.exampleCount} examples.`, ok: true });
        if (access === "SCORING") void detail.reload(); // the "no scoring dataset" notice goes away
      } else setDatasetMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setDatasetMessage({ text: describeError(problem), ok: false });
    }
  }

  return (
    <div>
      <header class="page-head">
        <p class="crumbs"><a href={href("/owner")}>Your tasks</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{task.name}</h1>
        {!task.viewerIsOwner && <p class="note">You do not own this task: the server will refuse changes.</p>}
        {task.scoringNotice && <p class="note" role="note" data-testid="scoring-notice">{task.scoringNotice}</p>}
        <p><a href={href(`/owner/${encodeURIComponent(code)}/campaigns`)} data-testid="campaigns-link">Crowd campaigns (Prolific, MTurk, open links)</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/flags`)} data-testid="flag-queue-link">Flag queue</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/webhooks`)} data-testid="webhooks-link">Webhooks</a></p>
      </header>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="rates-title">
            <h2 id="rates-title">Model error rate per round</h2>
            <RatesChart rounds={rounds} />
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Numbers per round (scrolls sideways)">
              <table>
                <caption class="visually-hidden">Numbers per round</caption>
                <thead><tr><th scope="col">Round</th><th scope="col" class="num">Examples</th><th scope="col" class="num">Fooled</th>
                  <th scope="col" class="num">MER</th><th scope="col" class="num">vMER</th></tr></thead>
                <tbody>
                  {rounds.map((r) => (
                    <tr key={r.id}><th scope="row">{r.number}</th><td class="num">{r.totalCollected}</td><td class="num">{r.totalFooled}</td>
                      <td class="num">{formatRate(r.mer)}</td><td class="num">{formatRate(r.vmer)}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section class="card" aria-labelledby="rounds-title">
            <h2 id="rounds-title">Rounds</h2>
            {rounds.length === 0 ? <p class="hint">No rounds yet.</p> : (
              <ul class="round-list">
                {[...rounds].sort((a, b) => b.number - a.number).map((r) => (
                  <RoundActions key={r.id} code={code} round={r} onChanged={() => detail.reload()} />
                ))}
              </ul>
            )}
          </section>
          <section class="card" aria-labelledby="contexts-title">
            <h2 id="contexts-title">Add contexts{current ? ` to round ${current.number}` : ""}</h2>
            {!current ? <p class="hint">Open a round first.</p> : (
              <form onSubmit={(e) => void addContexts(e)}>
                <div class="field">
                  <label for="contexts-jsonl">Contexts, one JSON object per line</label>
                  <textarea id="contexts-jsonl" rows={5} class="mono" spellcheck={false} value={contexts}
                    placeholder={`{"fields": {"${task.config.context_fields[0]?.name ?? "prompt"}": "…"}, "tag": "optional"}`}
                    aria-describedby="contexts-hint" onInput={(e) => setContexts(e.currentTarget.value)} />
                  <p class="hint" id="contexts-hint">Each line is {"{"}"fields": {"{…}"}, "tag": …{"}"} or just the fields.</p>
                </div>
                <button type="submit">Add contexts</button>
                <Status message={contextsMessage} testId="contexts-status" />
              </form>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label="Rounds and datasets">
          <section class="card" aria-labelledby="round-open-title">
            <h2 id="round-open-title">Open a new round</h2>
            <form onSubmit={(e) => void openRound(e)}>
              <div class="field">
                <label for="round-targets">Target models</label>
                <input id="round-targets" type="text" value={targets} aria-describedby="round-targets-hint" onInput={(e) => setTargets(e.currentTarget.value)} />
                <p class="hint" id="round-targets-hint">Triton model names, comma-separated; add :version to pin one.</p>
              </div>
              <button type="submit">Open round</button>
              <Status message={roundMessage} testId="round-status" />
            </form>
          </section>
          <section class="card" aria-labelledby="dataset-title">
            <h2 id="dataset-title">Upload a dataset</h2>
            <form onSubmit={(e) => void createDataset(e)}>
              <div class="field"><label for="dataset-name">Name</label>
                <input id="dataset-name" type="text" required value={datasetName} onInput={(e) => setDatasetName(e.currentTarget.value)} /></div>
              <div class="field"><label for="dataset-file">JSONL file</label>
                <input id="dataset-file" type="file" accept=".jsonl,.json,application/json" onChange={(e) => setDatasetFile(e.currentTarget.files?.[0] ?? null)} /></div>
              <div class="field"><label for="dataset-access">Access</label>
                <select id="dataset-access" value={access} onChange={(e) => setAccess(e.currentTarget.value as Dataset["access"])}>
                  <option value="SCORING">Scoring (ranks models)</option>
                  <option value="STANDARD">Standard</option>
                  <option value="HIDDEN">Hidden</option>
                </select></div>
              <div class="field"><label for="dataset-weight">Weight</label>
                <input id="dataset-weight" type="number" min={0} step={0.1} value={weight} onInput={(e) => setWeight(e.currentTarget.value)} /></div>
              <div class="field"><label for="dataset-round">Round number (optional)</label>
                <input id="dataset-round" type="number" min={1} step={1} value={roundNumber} onInput={(e) => setRoundNumber(e.currentTarget.value)} /></div>
              <button type="submit">Upload dataset</button>
              <Status message={datasetMessage} testId="dataset-status" />
            </form>
          </section>
        </aside>
      </div>
    </div>
  );
}

function RatesChart({ rounds }: { rounds: RoundDetail[] }) {
  const data: RoundRates[] = rounds.map((r) => ({ number: r.number, mer: r.mer, vmer: r.vmer }));
  if (!data.length) return <p class="hint">No rounds yet.</p>;
  const sorted = [...data].sort((a, b) => a.number - b.number);
  const mer = points(data, "mer");
  const vmer = points(data, "vmer");
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const summary = sorted.map((r) => `round ${r.number}: MER ${formatRate(r.mer)}, vMER ${formatRate(r.vmer)}`).join("; ");
  return (
    <figure>
      <svg class="chart" viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-labelledby="chart-title chart-desc" data-testid="mer-chart">
        <title id="chart-title">MER and vMER per round</title>
        <desc id="chart-desc">{summary}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={CHART.left} x2={CHART.width - CHART.right} y1={yOf(t)} y2={yOf(t)} stroke="#cbd5e1" />
            <text x={CHART.left - 6} y={yOf(t) + 4} text-anchor="end">{Math.round(t * 100)}%</text>
          </g>
        ))}
        {sorted.map((r, i) => {
          const x = points(sorted.map((s) => ({ ...s, mer: 0 })), "mer")[i].x;
          return <text key={r.number} x={x} y={CHART.height - CHART.bottom + 18} text-anchor="middle">R{r.number}</text>;
        })}
        <path d={pathOf(data, "mer")} fill="none" stroke="#1e3a8a" stroke-width={2.5} />
        <path d={pathOf(data, "vmer")} fill="none" stroke="#166534" stroke-width={2.5} stroke-dasharray="6 4" />
        {mer.map((p) => <circle key={`m${p.round}`} cx={p.x} cy={p.y} r={4} fill="#1e3a8a" data-series="mer" data-round={p.round} />)}
        {vmer.map((p) => <rect key={`v${p.round}`} x={p.x - 4} y={p.y - 4} width={8} height={8} fill="#166534" data-series="vmer" data-round={p.round} />)}
      </svg>
      <figcaption class="legend">
        <span><span class="swatch" style={{ background: "#1e3a8a" }} />MER (fooled / collected)</span>
        <span><span class="swatch" style={{ background: "#166534" }} />vMER (validated fooled / collected, dashed)</span>
      </figcaption>
    </figure>
  );
}
