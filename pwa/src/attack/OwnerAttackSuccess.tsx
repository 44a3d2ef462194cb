/**
 * The task owner page of a generative task: each round's attack success per target model and per attack category
 * (newest round first), read once when the page opens.
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import type { TaskConfig } from "../api/types";
import { AttackTables } from "./AttackTables";
import { TASK_ATTACK_SUCCESS, type RoundAttackSuccess } from "./documents";
import { ATTACK_TEXT as T } from "./text";

export interface OwnerAttackSuccessProps {
  code: string;
  config: TaskConfig;
  /** Changes when the page re-reads its task (a round opened or closed): read again. */
  version?: unknown;
}

export function OwnerAttackSuccess({ code, config, version }: OwnerAttackSuccessProps) {
  const [rounds, setRounds] = useState<RoundAttackSuccess[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    request(TASK_ATTACK_SUCCESS, { code }).then(
      ({ task }) => {
        if (cancelled) return;
        setError(null);
        setRounds([...(task?.rounds.edges.map((e) => e.node) ?? [])].sort((a, b) => b.number - a.number));
      },
      (problem) => !cancelled && setError(describeError(problem)),
    );
    return () => {
      cancelled = true;
    };
  }, [code, version]);

  return (
    <section class="card round-attack" aria-labelledby="attack-title" data-testid="owner-attack">
      <h2 id="attack-title">{T.byRoundTitle}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {rounds === null ? !error && <p role="status">{T.loading}</p> : rounds.map((round) => (
        <div key={round.id} data-testid={`attack-round-${round.number}`}>
          <h3>{T.roundHeading(round.number)}</h3>
          <AttackTables rows={round.attackSuccess} config={config} idBase={`attack-round-${round.number}`} />
        </div>
      ))}
    </section>
  );
}
