/**
 * The battle leaderboard of a task (its own chunk, `#/leaderboard/<code>/battles`): per task or per round (a round
 * picker), each model's Bradley–Terry rating with its 95% bootstrap interval drawn on one scale shared by every model
 * (plain CSS; the numbers are also text), its rank, rank stability and top share, its vote counts, and the win-rate
 * matrix as a table, and the votes' quality (what counts, position bias). A card per model, stacked: phone first.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { PageProps } from "../../routes";
import { href } from "../../router";
import { BATTLE_TEXT as T } from "../text";
import { barOf, ratingNumber, scaleOf, share, winRateCell, type Board, type BoardModel, type Scale } from "./board";
import { BATTLE_BOARD, BOARD_TASK, type BoardTask } from "./documents";
import { VoteQuality } from "./VoteQuality";
import "../../leaderboard/leaderboard.css";
import "./board.css";

export function BattleBoardPage({ params, query }: PageProps) {
  const code = params.code;
  const [task, setTask] = useState<BoardTask | null>(null);
  const [roundId, setRoundId] = useState<string>(query.get("round") ?? "");
  const [board, setBoard] = useState<Board | null>(null);
  const [status, setStatus] = useState<string>(T.loadingBoard);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void request(BOARD_TASK, { code }).then(({ task: found }) => setTask(found), (problem) => setError(describeError(problem)));
  }, [code]);

  useEffect(() => {
    let current = true;
    setStatus(T.loadingBoard);
    request(BATTLE_BOARD, { code, roundId: roundId || null }).then(
      ({ battleLeaderboard }) => {
        if (!current) return;
        setBoard(battleLeaderboard);
        setError(null);
        setStatus(battleLeaderboard.models.length ? T.counted(battleLeaderboard.votes, battleLeaderboard.rounds) : T.noVotes);
      },
      (problem) => {
        if (!current) return;
        setError(describeError(problem));
        setStatus("");
      },
    );
    return () => {
      current = false;
    };
  }, [code, roundId]);

  const rounds = task?.rounds.edges.map((e) => e.node).sort((a, b) => a.number - b.number) ?? [];
  const models = board?.models ?? [];
  const scale = useMemo(() => scaleOf(models), [board]);

  return (
    <section class="battle-board leaderboard" aria-labelledby="page-title">
      <p class="crumbs"><a href={href(`/tasks/${encodeURIComponent(code)}`)}>{T.backToTask}</a></p>
      <h1 id="page-title" tabIndex={-1} dir="auto">{T.boardTitle(task?.name ?? code)}</h1>
      <p class="lead">{T.boardLead}</p>
      <p class="round-picker">
        <label for="board-round">{T.roundLabel}</label>{" "}
        <select id="board-round" value={roundId} onChange={(e) => setRoundId((e.target as HTMLSelectElement).value)}>
          <option value="">{T.allRounds}</option>
          {rounds.map((r) => <option key={r.id} value={r.id}>{T.roundOption(r.number)}</option>)}
        </select>
      </p>
      <p role="status" data-testid="board-status">{status}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {models.length > 0 && (
        <>
          <p class="hint" data-testid="board-scale">{T.intervalScale(ratingNumber(scale.min), ratingNumber(scale.max))}</p>
          <ol class="models" data-testid="board-models">
            {models.map((m) => <ModelCard key={m.name} model={m} scale={scale} />)}
          </ol>
          <WinRates models={models} winRate={board?.winRate ?? []} />
        </>
      )}
      {board && board.ballots > 0 && <VoteQuality board={board} />}
    </section>
  );
}

function ModelCard({ model, scale }: { model: BoardModel; scale: Scale }) {
  const bar = barOf(model, scale);
  const stats: [string, string][] = [
    [T.stability, share(model.stability)],
    [T.topShare, share(model.topShare)],
    [T.battles, String(model.battles)],
    [T.wins, String(model.wins)],
    [T.losses, String(model.losses)],
    [T.ties, String(model.ties)],
    [T.bothBadCount, String(model.bothBad)],
  ];
  return (
    <li class="card model-card" data-testid="board-model" data-name={model.name}>
      <h3 dir="auto"><span class="rank">{T.rankOf(model.rank)}</span> {model.name}</h3>
      <p data-testid="board-rating">{T.ratingText(ratingNumber(model.rating), ratingNumber(model.lower), ratingNumber(model.upper))}</p>
      <div class="track" aria-hidden="true" data-testid="board-interval">
        <span class="range" style={{ insetInlineStart: `${bar.start}%`, inlineSize: `${bar.size}%` }} />
        <span class="point" style={{ insetInlineStart: `${bar.point}%` }} />
      </div>
      <dl class="stats">
        {stats.map(([term, value]) => (
          <div key={term}><dt>{term}</dt><dd>{value}</dd></div>
        ))}
      </dl>
    </li>
  );
}

function WinRates({ models, winRate }: { models: BoardModel[]; winRate: (number | null)[][] }) {
  return (
    <section class="card" aria-labelledby="win-rate-title">
      <h2 id="win-rate-title">{T.winRateTitle}</h2>
      <p class="hint scroll-cue">{T.scrollHint}</p>
      <div class="matrix-wrap" tabIndex={0} role="group" aria-label={T.winRateTitle}>
        <table class="matrix" data-testid="board-matrix">
          <caption class="hint">{T.winRateCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{T.model}</th>
              {models.map((m) => <th key={m.name} scope="col" dir="auto">{m.name}</th>)}
            </tr>
          </thead>
          <tbody>
            {models.map((row, i) => (
              <tr key={row.name}>
                <th scope="row" dir="auto">{row.name}</th>
                {models.map((column, j) => {
                  const cell = i === j ? null : winRateCell(winRate[i]?.[j]);
                  return (
                    <td key={column.name}>
                      {cell ?? (
                        <>
                          <span aria-hidden="true">{"–"}</span>
                          {i !== j && <span class="visually-hidden">{T.winRateNone}</span>}
                        </>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
