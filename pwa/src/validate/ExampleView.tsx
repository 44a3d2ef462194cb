/** The example a validator judges: its context, the annotator's fields (through the form specs), the intended and the model's answers. */
import type { QueueExample, TaskConfig } from "../api/types";
import { fromModelOutput } from "../annotate/verdict";
import { fieldTitle, parseFieldSpecs } from "../forms/specs";
import { displayValue } from "../forms/values";
import { CLAIM_TEXT } from "../outbox/claims";
import { fieldName, labelName } from "../tasks/config";
import { ProbabilityBars } from "../ui/Verdict";
import { intendedAnswer, modelAnswer } from "./queue";
import { EXAMPLE_VIEW_TEXT as T } from "./text";

export function ExampleView({ example, config, askUser }: { example: QueueExample; config: TaskConfig; askUser: boolean }) {
  const intended = intendedAnswer(example);
  const answer = modelAnswer(example);
  const [prediction] = fromModelOutput(example.modelName, example.modelOutput);
  return (
    <article class="queue-example" data-example-id={example.id} aria-label={T.label}>
      {config.context_fields.map((spec) => (
        <div class="context-field" key={spec.name}>
          <h3 class="field-title">{fieldName(config, spec)}</h3>
          <p class="context-text" dir="auto">{String(example.context.fields[spec.name] ?? "")}</p>
        </div>
      ))}
      {parseFieldSpecs(config)
        .filter((spec) => spec.showWhen === "always" || example.input[spec.name] !== undefined)
        .map((spec) => (
          <div class="context-field" key={spec.name}>
            <h3 class="field-title">{T.writtenBy(fieldName(config, { name: spec.name, display_name: fieldTitle(spec) }))}</h3>
            <p class="context-text example-input" dir="auto" data-field={spec.name}>{displayValue(spec, example.input[spec.name])}</p>
          </div>
        ))}
      <dl class="pairs">
        <div><dt>{config.kind === "extractive_qa" ? T.intendedAnswer : T.intendedLabel}</dt><dd data-testid="intended" dir="auto">{intended ? (config.kind === "extractive_qa" ? intended : labelName(config, intended)) : "—"}</dd></div>
        <div><dt>{T.modelAnswer}</dt><dd data-testid="model-answer" dir="auto">{answer ? (config.kind === "extractive_qa" ? answer : labelName(config, answer)) : "—"}</dd></div>
      </dl>
      {prediction && prediction.probabilities.length > 0 && (
        <ProbabilityBars probabilities={prediction.probabilities} chosen={prediction.label} caption={T.howSure(example.modelName)} />
      )}
      {example.explanation && <p class="hint">{T.explanation} <span dir="auto">{example.explanation}</span></p>}
      {askUser && (
        <p class="verdict-message" data-testid="claim-to-check">
          {example.claimedFooled === false ? CLAIM_TEXT.validateRight : CLAIM_TEXT.validateWrong}
        </p>
      )}
    </article>
  );
}
