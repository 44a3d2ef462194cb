/**
 * "Which words mattered" (its own chunk): asks explainPrediction about an attempt and shows its words shaded by how
 * much each moved the model, plus a list of the strongest ones with a bar and a signed score each, so nothing is
 * said by colour alone. Colours come from the theme's CSS variables (light and dark).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { humanize } from "../tasks/config";
import { EXPLAIN_PREDICTION, type PredictionExplanation } from "./documents";
import { segments, signedPercent, topTokens } from "./explain";
import { ANNOTATE_TEXT as T } from "./text";
import "./why.css";

export interface Props {
  roundId: string;
  contextId: string | null;
  fields: Record<string, unknown>;
  fieldTitles: Record<string, string>;
  online: boolean;
}

type State = { kind: "loading" } | { kind: "error"; message: string } | { kind: "done"; result: PredictionExplanation };

export function WhyWords({ roundId, contextId, fields, fieldTitles, online }: Props) {
  const [state, setState] = useState<State>({ kind: "loading" });

  useEffect(() => {
    if (!online) {
      setState({ kind: "error", message: T.whyOffline });
      return undefined;
    }
    let cancelled = false;
    setState({ kind: "loading" });
    request(EXPLAIN_PREDICTION, { roundId, fields, contextId }).then(
      (data) => !cancelled && setState({ kind: "done", result: data.explainPrediction }),
      (error) => !cancelled && setState({ kind: "error", message: describeError(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [roundId, contextId, online]);

  if (state.kind !== "done") {
    return <p role="status" class={state.kind === "error" ? "error" : "hint"}>{state.kind === "error" ? state.message : T.whyLoading}</p>;
  }
  const { prediction, tokens } = state.result;
  const answer = prediction.label ? humanize(prediction.label) : prediction.answer ?? "—";
  const top = topTokens(tokens);
  const byField = Object.keys(fields).filter((name) => tokens.some((t) => t.field === name));
  return (
    <figure class="why" data-testid="why-words" aria-labelledby="why-caption">
      <figcaption id="why-caption">
        <strong>{T.whyTitle}</strong> <span class="hint">{T.whyLead(answer)}</span>
      </figcaption>
      {byField.map((name) => (
        <div class="why-field" key={name}>
          {byField.length > 1 && <p class="field-title">{fieldTitles[name] ?? humanize(name)}</p>}
          <p class="why-text" dir="auto">
            {segments(String(fields[name] ?? ""), tokens.filter((t) => t.field === name)).map((segment, i) =>
              segment.token ? (
                <span
                  key={i}
                  class="why-word"
                  data-direction={segment.token.attribution < 0 ? "against" : "for"}
                  style={{ "--strength": segment.strength.toFixed(2) }}
                  title={signedPercent(segment.token.attribution)}
                >
                  {segment.text}
                </span>
              ) : (
                segment.text
              ),
            )}
          </p>
        </div>
      ))}
      {top.length ? (
        <>
          <p class="why-top-title">{T.whyTop}</p>
          <ol class="why-top">
            {top.map((token, i) => {
              const direction = token.attribution < 0 ? T.whyAgainst : T.whyFor;
              const percent = signedPercent(token.attribution);
              return (
                <li key={i} class="why-top-row" data-direction={token.attribution < 0 ? "against" : "for"}>
                  <span class="why-top-word" dir="auto">{token.text}</span>
                  <span
                    class="why-bar"
                    role="meter"
                    aria-label={T.whyWord(token.text, percent, direction)}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(Math.min(1, Math.abs(token.attribution)) * 1000) / 10}
                    aria-valuetext={`${percent} (${direction})`}
                  >
                    <span class="why-fill" style={{ inlineSize: `${Math.min(100, Math.abs(token.attribution) * 100)}%` }} />
                  </span>
                  <span class="why-score" aria-hidden="true">{percent}</span>
                </li>
              );
            })}
          </ol>
        </>
      ) : (
        <p class="hint">{T.whyNone}</p>
      )}
    </figure>
  );
}
