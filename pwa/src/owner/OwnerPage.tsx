/**
 * Task owners: their tasks with each one's state, a link to create a task (owner/create/), the task's state (a
 * proposal, rejected, hidden, archived: TaskState.tsx), open a round with target models picked from a list
 * (OpenRound.tsx), add contexts to a round, upload datasets (JSONL, multipart), see MER / vMER per round as a plain SVG chart
 * (ASR / validated ASR on a generative task, with each round's attack success per target and category: attack/), and per
 * round: export it or close it (RoundActions.tsx).
 */
import { useState } from "preact/hooks";
import { describeError, request, requestUpload } from "../api/client";
import { ADD_CONTEXTS, CREATE_DATASET, OWNER_TASKS } from "../api/documents";
import type { Dataset, RoundDetail } from "../api/types";
import { session } from "../auth/session";
import { useObservable } from "../lib/observable";
import type { PageProps } from "../routes";
import { href } from "../router";
import { formatRate, isGenerative } from "../tasks/config";
import { LazyOwnerAttackSuccess } from "../attack/lazy";
import { LazyOwnerAssistance } from "../suggest/lazy";
import { anyOffered, offeredSuggestions } from "../suggest/offered";
import { ATTACK_TEXT } from "../attack/text";
import { useTaskDetail } from "../tasks/detail";
import { statusNote } from "../tasks/status";
import { CHART, pathOf, points, yOf, type RoundRates } from "./chart";
import { GenerationUsageCard } from "./GenerationUsageCard";
import { OpenRoundCard } from "./OpenRound";
import { RoundActions } from "./RoundActions";
import { TaskState } from "./TaskState";
import { errorText, Status, type Message } from "./status";
import { formatNumber } from "../i18n/format";
import { OWNER_TEXT as T } from "./text";
import { useOwnerQuery } from "./useOwnerQuery";

export function OwnerIndexPage() {
  const { data: tasks, error } = useOwnerQuery(
    async () => (await request(OWNER_TASKS, { first: 100 })).tasks.edges.map((e) => e.node),
    [],
  );
  const owned = tasks?.filter((t) => t.viewerIsOwner) ?? [];
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.indexTitle}</h1>
      <p class="lead">{T.indexLead}</p>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="owned-title">
            <h2 id="owned-title">{T.ownedTitle}</h2>
            {error && <p class="error" role="alert">{error}</p>}
            {tasks === undefined ? <p role="status">{T.loading}</p> : owned.length === 0 ? <p class="hint">{T.noneOwned}</p> : (
              <ul>
                {owned.map((t) => {
                  const state = statusNote(t.status);
                  return (
                    <li key={t.id} data-testid={`owned-${t.code}`} data-status={t.status}>
                      <a href={href(`/owner/${encodeURIComponent(t.code)}`)}><bdi>{t.name}</bdi></a> <span class="hint">({t.code})</span>
                      {state && <> <span class="badge badge-task-status">{state.badge}</span> <span class="hint">{state.hint}</span></>}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label={T.newTaskRegion}>
          <section class="card" aria-labelledby="create-title">
            <h2 id="create-title">{T.createTitle}</h2>
            <p class="hint">{T.createHint}</p>
            <p><a href={href("/new-task")} data-testid="new-task-link">{T.createLink}</a></p>
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
        <h1 id="page-title" tabIndex={-1}>{T.taskFallbackTitle}</h1>
        <p role="status">{detail.loading ? T.loadingTask : detail.missing ? T.noTask(code) : detail.error}</p>
      </section>
    );
  }
  const rounds = task.rounds.edges.map((e) => e.node);
  const current = task.currentRound;
  const generative = isGenerative(task.config); // MER and vMER are the attack success rates (ASR, vASR) there

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
        setContextsMessage({ text: T.lineNotJson(i + 1), ok: false });
        return;
      }
    }
    if (!parsed.length) {
      setContextsMessage({ text: T.oneContextPerLine, ok: false });
      return;
    }
    try {
      const { addContexts: result } = await request(ADD_CONTEXTS, { input: { roundId: current.id, contexts: parsed } });
      if (result.__typename === "ContextsAdded") {
        setContextsMessage({ text: T.contextsAdded(result.count, current.number), ok: true });
        setContexts("");
      } else setContextsMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setContextsMessage({ text: describeError(problem), ok: false });
    }
  }

  async function createDataset(event: Event) {
    event.preventDefault();
    if (!datasetFile) {
      setDatasetMessage({ text: T.chooseJsonl, ok: false });
      return;
    }
    try {
      const { createDataset: result } = await requestUpload(
        CREATE_DATASET,
        { taskCode: code, name: datasetName.trim(), file: null, access, weight: Number(weight) || 0, roundNumber: roundNumber ? Number(roundNumber) : null },
        { file: datasetFile },
      );
      if (result.__typename === "DatasetCreated") {
        setDatasetMessage({ text: T.datasetCreated(result.dataset.name, result.exampleCount), ok: true });
        if (access === "SCORING") void detail.reload(); // the "no scoring dataset" notice goes away
      } else setDatasetMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setDatasetMessage({ text: describeError(problem), ok: false });
    }
  }

  return (
    <div>
      <header class="page-head">
        <p class="crumbs"><a href={href("/owner")}>{T.indexTitle}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1} dir="auto">{task.name}</h1>
        {!task.viewerIsOwner && <p class="note">{T.notOwner}</p>}
        <TaskState status={task.status} reviewNote={task.reviewNote} />
        {task.scoringNotice && <p class="note" role="note" data-testid="scoring-notice">{task.scoringNotice}</p>}
        <p><a href={href(`/owner/${encodeURIComponent(code)}/campaigns`)} data-testid="campaigns-link">{T.campaignsLink}</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/flags`)} data-testid="flag-queue-link">{T.flagQueueLink}</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/webhooks`)} data-testid="webhooks-link">{T.webhooksLink}</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/settings`)} data-testid="settings-link">{T.settingsLink}</a></p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/training`)} data-testid="training-link">{T.trainingLink}</a></p>
      </header>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="rates-title">
            <h2 id="rates-title">{generative ? ATTACK_TEXT.ratesTitle : T.ratesTitle}</h2>
            <RatesChart rounds={rounds} generative={generative} />
            <div class="table-wrap" tabIndex={0} role="region" aria-label={T.ratesRegion}>
              <table>
                <caption class="visually-hidden">{T.ratesCaption}</caption>
                <thead><tr><th scope="col">{T.colRound}</th><th scope="col" class="num">{T.colExamples}</th><th scope="col" class="num">{T.colFooled}</th>
                  {generative ? (
                    <><th scope="col" class="num"><abbr title={ATTACK_TEXT.asrTitle}>ASR</abbr></th>
                      <th scope="col" class="num"><abbr title={ATTACK_TEXT.vasrTitle}>vASR</abbr></th></>
                  ) : <><th scope="col" class="num">MER</th><th scope="col" class="num">vMER</th></>}</tr></thead>
                <tbody>
                  {rounds.map((r) => (
                    <tr key={r.id}><th scope="row">{formatNumber(r.number)}</th><td class="num">{formatNumber(r.totalCollected)}</td><td class="num">{formatNumber(r.totalFooled)}</td>
                      <td class="num">{formatRate(r.mer)}</td><td class="num">{formatRate(r.vmer)}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          {generative && <LazyOwnerAttackSuccess code={code} config={task.config} version={task} />}
          {anyOffered(offeredSuggestions(task.config)) && <LazyOwnerAssistance code={code} version={task} />}
          <section class="card" aria-labelledby="rounds-title">
            <h2 id="rounds-title">{T.roundsTitle}</h2>
            {rounds.length === 0 ? <p class="hint">{T.noRounds}</p> : (
              <ul class="round-list">
                {[...rounds].sort((a, b) => b.number - a.number).map((r) => (
                  <RoundActions key={r.id} code={code} round={r} onChanged={() => detail.reload()} generator={offeredSuggestions(task.config).generator} />
                ))}
              </ul>
            )}
          </section>
          <section class="card" aria-labelledby="contexts-title">
            <h2 id="contexts-title">{current ? T.contextsTitleRound(current.number) : T.contextsTitle}</h2>
            {!current ? <p class="hint">{T.openRoundFirst}</p> : (
              <form onSubmit={(e) => void addContexts(e)}>
                <div class="field">
                  <label for="contexts-jsonl">{T.contextsLabel}</label>
                  <textarea id="contexts-jsonl" rows={5} class="mono" spellcheck={false} value={contexts}
                    placeholder={`{"fields": {"${task.config.context_fields[0]?.name ?? "prompt"}": "…"}, "tag": "optional"}`}
                    aria-describedby="contexts-hint" onInput={(e) => setContexts(e.currentTarget.value)} />
                  <p class="hint" id="contexts-hint">{T.contextsHint}</p>
                </div>
                <button type="submit">{T.addContexts}</button>
                <Status message={contextsMessage} testId="contexts-status" />
              </form>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label={T.sideRegion}>
          <OpenRoundCard task={task} onOpened={() => detail.reload()} />
          <section class="card" aria-labelledby="dataset-title">
            <h2 id="dataset-title">{T.datasetTitle}</h2>
            <form onSubmit={(e) => void createDataset(e)}>
              <div class="field"><label for="dataset-name">{T.datasetName}</label>
                <input id="dataset-name" type="text" required value={datasetName} onInput={(e) => setDatasetName(e.currentTarget.value)} /></div>
              <div class="field"><label for="dataset-file">{T.datasetFile}</label>
                <input id="dataset-file" type="file" accept=".jsonl,.json,application/json" onChange={(e) => setDatasetFile(e.currentTarget.files?.[0] ?? null)} /></div>
              <div class="field"><label for="dataset-access">{T.access}</label>
                <select id="dataset-access" value={access} onChange={(e) => setAccess(e.currentTarget.value as Dataset["access"])}>
                  <option value="SCORING">{T.accessScoring}</option>
                  <option value="STANDARD">{T.accessStandard}</option>
                  <option value="HIDDEN">{T.accessHidden}</option>
                </select></div>
              <div class="field"><label for="dataset-weight">{T.weight}</label>
                <input id="dataset-weight" type="number" min={0} step={0.1} value={weight} onInput={(e) => setWeight(e.currentTarget.value)} /></div>
              <div class="field"><label for="dataset-round">{T.roundNumber}</label>
                <input id="dataset-round" type="number" min={1} step={1} value={roundNumber} onInput={(e) => setRoundNumber(e.currentTarget.value)} /></div>
              <button type="submit">{T.uploadDataset}</button>
              <Status message={datasetMessage} testId="dataset-status" />
            </form>
          </section>
          {task.viewerIsOwner && <GenerationUsageCard code={code} />}
        </aside>
      </div>
    </div>
  );
}

function RatesChart({ rounds, generative }: { rounds: RoundDetail[]; generative: boolean }) {
  const data: RoundRates[] = rounds.map((r) => ({ number: r.number, mer: r.mer, vmer: r.vmer }));
  if (!data.length) return <p class="hint">{T.noRounds}</p>;
  const sorted = [...data].sort((a, b) => a.number - b.number);
  const mer = points(data, "mer");
  const vmer = points(data, "vmer");
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const words = generative
    ? { title: ATTACK_TEXT.chartTitle, round: ATTACK_TEXT.chartRound, mer: ATTACK_TEXT.legendAsr, vmer: ATTACK_TEXT.legendVasr }
    : { title: T.chartTitle, round: T.chartRound, mer: T.legendMer, vmer: T.legendVmer };
  const summary = sorted.map((r) => words.round(r.number, formatRate(r.mer), formatRate(r.vmer))).join("; ");
  return (
    <figure>
      <svg class="chart" viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-labelledby="chart-title chart-desc" data-testid="mer-chart">
        <title id="chart-title">{words.title}</title>
        <desc id="chart-desc">{summary}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={CHART.left} x2={CHART.width - CHART.right} y1={yOf(t)} y2={yOf(t)} stroke="#cbd5e1" />
            <text x={CHART.left - 6} y={yOf(t) + 4} text-anchor="end">{formatNumber(t, { style: "percent" })}</text>
          </g>
        ))}
        {sorted.map((r, i) => {
          const x = points(sorted.map((s) => ({ ...s, mer: 0 })), "mer")[i].x;
          return <text key={r.number} x={x} y={CHART.height - CHART.bottom + 18} text-anchor="middle">{T.chartTick(r.number)}</text>;
        })}
        <path d={pathOf(data, "mer")} fill="none" stroke="#1e3a8a" stroke-width={2.5} />
        <path d={pathOf(data, "vmer")} fill="none" stroke="#166534" stroke-width={2.5} stroke-dasharray="6 4" />
        {mer.map((p) => <circle key={`m${p.round}`} cx={p.x} cy={p.y} r={4} fill="#1e3a8a" data-series="mer" data-round={p.round} />)}
        {vmer.map((p) => <rect key={`v${p.round}`} x={p.x - 4} y={p.y - 4} width={8} height={8} fill="#166534" data-series="vmer" data-round={p.round} />)}
      </svg>
      <figcaption class="legend">
        <span><span class="swatch" style={{ background: "#1e3a8a" }} />{words.mer}</span>
        <span><span class="swatch" style={{ background: "#166534" }} />{words.vmer}</span>
      </figcaption>
    </figure>
  );
}
