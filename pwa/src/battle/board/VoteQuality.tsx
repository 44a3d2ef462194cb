/**
 * The battle leaderboard's vote quality (docs/design.md §4.3a): how many votes count and why others do not (voters
 * whose picks do not depend on the replies, voters paused by check battles, repeated votes), and the position bias:
 * per number of sides, how often the counted votes picked each position against chance, as a table.
 */
import { formatPercent } from "../../i18n/format";
import { BATTLE_TEXT as T } from "../text";
import { biasGroups, leaning, share, type Board } from "./board";

export function VoteQuality({ board }: { board: Board }) {
  const groups = biasGroups(board.positionBias);
  const leanText = { above: T.leanAbove, below: T.leanBelow, none: T.leanNone };
  return (
    <section class="card" aria-labelledby="vote-quality-title" data-testid="board-quality">
      <h2 id="vote-quality-title">{T.qualityTitle}</h2>
      <ul class="quality">
        <li>{T.qualityCounted(board.countedBallots, board.ballots)}</li>
        {board.flaggedVoters > 0 && <li>{T.qualityFlagged(board.flaggedVoters)}</li>}
        {board.pausedVoters > 0 && <li>{T.qualityPaused(board.pausedVoters)}</li>}
        {board.repeats > 0 && <li>{T.qualityRepeats(board.repeats)}</li>}
      </ul>
      <h3>{T.biasTitle}</h3>
      {groups.length === 0 && <p class="hint">{T.noBias}</p>}
      {groups.map((group) => (
        <div class="matrix-wrap" key={group.sides} tabIndex={0} role="group" aria-label={T.biasCaption(group.sides)}>
          <table class="matrix" data-testid="board-bias">
            <caption class="hint">{T.biasCaption(group.sides)}</caption>
            <thead>
              <tr>
                <th scope="col">{T.biasPosition}</th>
                <th scope="col">{T.biasPicked}</th>
                <th scope="col">{T.biasShare}</th>
                <th scope="col">{T.biasChance}</th>
                <th scope="col">{T.biasLeaning}</th>
              </tr>
            </thead>
            <tbody>
              {group.shares.map((item) => (
                <tr key={item.label}>
                  <th scope="row">{T.side(item.label)}</th>
                  <td>{`${item.picked} / ${item.decisive}`}</td>
                  <td>{T.shareText(share(item.share), share(item.lower), share(item.upper))}</td>
                  <td>{formatPercent(item.chance, 0)}</td>
                  <td>{leanText[leaning(item)]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
