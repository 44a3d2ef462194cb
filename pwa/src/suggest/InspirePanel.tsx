/**
 * "Inspire me" (its own chunk): candidates from the task's generator, or edits of the author's draft that flip the
 * round's model (suggestExamples). One tap puts a candidate into the editor; the author edits and submits, and the
 * submission carries the suggestion's id, so the example records that it was assisted (the server checks the claim).
 * On the chat page the same panel suggests an opening message.
 */
import { useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { newClientId } from "../lib/uuid";
import { SUGGEST_EXAMPLES, type Suggestion, type SuggestionKind } from "./documents";
import { candidateText, percent } from "./suggest";
import { SUGGEST_TEXT as T } from "./text";
import "./suggest.css";
import { fieldErrors } from "../api/types";

export interface InspirePanelProps {
  roundId: string;
  contextId: string;
  /** The field a suggestion fills: a written input field, or "message" (a chat's opening). */
  field: string;
  /** The author's draft of that field (the perturbation search edits it; a hint to the generator). */
  draftText: string;
  generator: boolean;
  perturbation: boolean;
  online: boolean;
  /** The chat page's opening message rather than an example. */
  opening?: boolean;
  labelText?: (label: string) => string;
  onAccept: (text: string, suggestionId: string, label: string | null) => void;
}

type State =
  | { kind: "idle" }
  | { kind: "asking" }
  | { kind: "error"; message: string }
  | { kind: "done"; suggestions: Suggestion[] }
  | { kind: "used" };

export function InspirePanel(props: InspirePanelProps) {
  const { roundId, contextId, field, draftText, generator, perturbation, online, opening } = props;
  const [state, setState] = useState<State>({ kind: "idle" });
  const label = props.labelText ?? ((l: string) => l);
  const canPerturb = draftText.trim().length > 0;

  async function ask(kind: SuggestionKind) {
    if (state.kind === "asking") return;
    if (!online) {
      setState({ kind: "error", message: T.offline });
      return;
    }
    if (kind === "PERTURBATION" && !canPerturb) {
      setState({ kind: "error", message: T.perturbHint });
      return;
    }
    setState({ kind: "asking" });
    const fields = draftText.trim() ? { [field]: draftText } : null;
    try {
      const { suggestExamples: result } = await request(SUGGEST_EXAMPLES, {
        input: { roundId, contextId, kind, clientId: newClientId(), fields },
      });
      if (result.__typename === "SuggestionsIssued" && "suggestions" in result) {
        setState({ kind: "done", suggestions: result.suggestions });
      } else if ("message" in result) {
        const detail = fieldErrors(result).map((f) => f.message).join(" ");
        setState({ kind: "error", message: detail ? `${result.message} ${detail}` : result.message });
      }
    } catch (problem) {
      setState({ kind: "error", message: describeError(problem) });
    }
  }

  function accept(suggestion: Suggestion) {
    props.onAccept(candidateText(suggestion, field), suggestion.id, suggestion.label);
    setState({ kind: "used" });
  }

  const status =
    state.kind === "asking" ? T.asking
    : state.kind === "used" ? (opening ? T.openingUsed : T.used)
    : state.kind === "done" ? (state.suggestions.length ? T.listTitle(state.suggestions.length) : T.none)
    : !online ? T.offline
    : "";
  const busy = state.kind === "asking";
  return (
    <section class="card inspire" aria-labelledby="inspire-title" data-testid="inspire">
      <h2 id="inspire-title">{opening ? T.openingTitle : T.title}</h2>
      {!opening && <p class="hint">{T.lead}</p>}
      <div class="actions inspire-actions">
        {generator && (
          <button type="button" data-testid="inspire-me" aria-disabled={busy || !online ? "true" : undefined} onClick={() => void ask("GENERATOR")}>
            {opening ? T.openingAsk : T.inspire}
          </button>
        )}
        {perturbation && (
          <button
            type="button"
            data-testid="perturb-draft"
            aria-disabled={busy || !online || !canPerturb ? "true" : undefined}
            aria-describedby="perturb-hint"
            onClick={() => void ask("PERTURBATION")}
          >
            {T.perturb}
          </button>
        )}
      </div>
      {perturbation && <p class="hint" id="perturb-hint">{T.perturbHint}</p>}
      <p role="status" class={state.kind === "error" ? "error" : "hint"} data-testid="inspire-status">
        {state.kind === "error" ? state.message : status}
      </p>
      {state.kind === "done" && state.suggestions.length > 0 && (
        <ol class="inspire-list" aria-label={T.listTitle(state.suggestions.length)}>
          {state.suggestions.map((suggestion, i) => (
            <li key={suggestion.id} class="inspire-item" data-testid={`suggestion-${i}`}>
              <p class="inspire-text" dir="auto">{candidateText(suggestion, field)}</p>
              {suggestion.label && <p class="hint">{T.meant(label(suggestion.label))}</p>}
              {suggestion.target && (
                <p class="hint" data-flipped={suggestion.target.flipped ? "yes" : "no"}>
                  {T.modelSays(label(suggestion.target.label))}
                  {" · "}
                  {suggestion.target.flipped ? <strong>{T.flipped}</strong> : T.notFlipped(percent(suggestion.target.confidence))}
                  {suggestion.target.edits.length > 0 && <><br />{T.edits(suggestion.target.edits.join("; "))}</>}
                </p>
              )}
              <button type="button" class="small" aria-label={T.useLabel(i + 1)} data-testid={`use-suggestion-${i}`} onClick={() => accept(suggestion)}>
                {T.use}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
