/** The example a validator judges: its context, the annotator's fields (through the form specs), the intended and the model's answers. */
import type { QueueExample, TaskConfig } from "../api/types";
import { fromModelOutput } from "../annotate/verdict";
import { fieldTitle, parseFieldSpecs } from "../forms/specs";
import { displayValue } from "../forms/values";
import { CLAIM_TEXT } from "../outbox/claims";
import { fieldLabel, humanize } from "../tasks/config";
import { ProbabilityBars } from "../ui/Verdict";
import { intendedAnswer, modelAnswer } from "./queue";

export function ExampleView({ example, config, askUser }: { example: QueueExample; config: TaskConfig; askUser: boolean }) {
  const intended = intendedAnswer(example);
  const answer = modelAnswer(example);
  const [prediction] = fromModelOutput(example.modelName, example.modelOutput);
  return (
    <article class="queue-example" data-example-id={example.id} aria-label="Example">
      {config.context_fields.map((spec) => (
        <div class="context-field" key={spec.name}>
          <h3 class="field-title">{fieldLabel(spec)}</h3>
          <p class="context-text">{String(example.context.fields[spec.name] ?? "")}</p>
        </div>
      ))}
      {parseFieldSpecs(config)
        .filter((spec) => spec.showWhen === "always" || example.input[spec.name] !== undefined)
        .map((spec) => (
          <div class="context-field" key={spec.name}>
            <h3 class="field-title">{fieldTitle(spec)} (written by the annotator)</h3>
            <p class="context-text example-input" data-field={spec.name}>{displayValue(spec, example.input[spec.name])}</p>
          </div>
        ))}
      <dl class="pairs">
        <div><dt>Intended {config.kind === "extractive_qa" ? "answer" : "label"}</dt><dd data-testid="intended">{intended ? humanize(intended) : "—"}</dd></div>
        <div><dt>Model’s answer</dt><dd data-testid="model-answer">{answer ? humanize(answer) : "—"}</dd></div>
      </dl>
      {prediction && prediction.probabilities.length > 0 && (
        <ProbabilityBars probabilities={prediction.probabilities} chosen={prediction.label} caption={`How sure ${example.modelName} was`} />
      )}
      {example.explanation && <p class="hint">Annotator’s explanation: {example.explanation}</p>}
      {askUser && (
        <p class="verdict-message" data-testid="claim-to-check">
          {example.claimedFooled === false ? CLAIM_TEXT.validateRight : CLAIM_TEXT.validateWrong}
        </p>
      )}
    </article>
  );
}
