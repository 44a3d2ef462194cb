/**
 * Two parts of the battle page: each side's rating on the task's form (a task with `generative.battle.rating_field`),
 * asked with the vote; and the result once voted: the models revealed, the ratings given, "Continue with Model A
 * (name)" for each side the author may go on with, the leaderboard's link and "New battle".
 */
import type { FieldSpec } from "../forms/specs";
import { href } from "../router";
import { choiceLabel, continuableSides, continueText, ratingHint, ratingName, ratingValues, revealText, type Battle, type BattleSide } from "./battle";
import { BATTLE_TEXT as T } from "./text";

export const RESULT_ID = "battle-result-title";

export function SideRatings(props: {
  spec: FieldSpec;
  sides: BattleSide[];
  values: Record<string, number | null>;
  disabled: boolean;
  onChange: (label: string, value: number | null) => void;
}) {
  const { spec, sides, values } = props;
  const choices = ratingValues(spec);
  const hintId = "battle-rating-hint";
  return (
    <fieldset class="battle-ratings" aria-describedby={hintId}>
      <legend dir="auto">{T.rateLegend(ratingName(spec))}</legend>
      <p class="hint" id={hintId}>{ratingHint(spec)} {T.choiceOptional}</p>
      {sides.map((side) =>
        choices ? (
          <fieldset key={side.label} class="battle-rating" data-testid="battle-rating" data-label={side.label}>
            <legend>{T.rateSide(side.label)}</legend>
            <div class="choice-row">
              {choices.map((value) => (
                <label class="choice" key={value}>
                  <input type="radio" name={`battle-rating-${side.label}`} value={value} checked={values[side.label] === value}
                    disabled={props.disabled} onChange={() => props.onChange(side.label, value)} />
                  <span>{value}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : (
          <p key={side.label} class="battle-rating" data-testid="battle-rating" data-label={side.label}>
            <label for={`battle-rating-${side.label}`}>{T.rateSide(side.label)}</label>{" "}
            <input id={`battle-rating-${side.label}`} type="number" inputMode="decimal" min={spec.min ?? undefined}
              max={spec.max ?? undefined} step={spec.step || "any"} value={values[side.label] ?? ""} disabled={props.disabled}
              onInput={(e) => {
                const text = (e.target as HTMLInputElement).value;
                props.onChange(side.label, text === "" ? null : Number(text));
              }} />
          </p>
        ),
      )}
    </fieldset>
  );
}

export function BattleResult(props: {
  battle: Battle;
  taskCode: string;
  continuing: string | null;
  continueError: string;
  canStart: boolean;
  online: boolean;
  onContinue: (side: BattleSide) => void;
  onNewBattle: () => void;
}) {
  const { battle } = props;
  const voted = battle.vote!;
  const rated = battle.sides.filter((s) => typeof s.rating === "number");
  const sides = continuableSides(battle);
  return (
    <section class="card battle-result" aria-labelledby={RESULT_ID} data-testid="battle-result">
      <h2 id={RESULT_ID} tabIndex={-1}>{T.resultTitle}</h2>
      <p data-testid="battle-choice">{T.youChose(choiceLabel(voted.choice, battle.sides.length))}</p>
      <ul class="battle-reveals">
        {battle.sides.map((side) => <li key={side.turnId} dir="auto" data-testid="battle-reveal">{revealText(side)}</li>)}
      </ul>
      {rated.length > 0 && (
        <ul class="battle-ratings-given" data-testid="battle-ratings-given">
          {rated.map((side) => <li key={side.turnId}>{T.ratedAs(side.label, String(side.rating))}</li>)}
        </ul>
      )}
      <h3>{T.continueTitle}</h3>
      {sides.length ? (
        <div class="actions">
          {sides.map((side) => (
            <button key={side.label} type="button" data-testid="battle-continue" data-label={side.label} dir="auto"
              disabled={!props.online} aria-disabled={props.continuing ? "true" : undefined} onClick={() => props.onContinue(side)}>
              {props.continuing === side.label ? T.continuing : continueText(side)}
            </button>
          ))}
        </div>
      ) : (
        <p class="hint">{T.continueNone}</p>
      )}
      {props.continueError && <p class="error" role="alert" dir="auto">{props.continueError}</p>}
      <div class="actions">
        <button type="button" class="primary" onClick={props.onNewBattle} disabled={!props.canStart}>{T.newBattle}</button>
        <a href={href(`/leaderboard/${encodeURIComponent(props.taskCode)}/battles`)} data-testid="battle-leaderboard-link">{T.seeLeaderboard}</a>
      </div>
    </section>
  );
}
