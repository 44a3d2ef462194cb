/**
 * The example a validator judges: its context, the annotator's fields (through the form specs), the intended and the
 * model's answers. A generative task's example is a conversation instead: the author's goal, the whole transcript
 * (its own lazy chunk, pwa/src/transcript), the author's fields and explanation, and what is claimed of it.
 */
import type { QueueExample, TaskConfig } from "../api/types";
import { fromModelOutput } from "../annotate/verdict";
import { generativeOf } from "../chat/config";
import { fieldTitle, parseFieldSpecs } from "../forms/specs";
import { displayValue } from "../forms/values";
import { localizeTask } from "../i18n/taskText";
import { CLAIM_TEXT } from "../outbox/claims";
import { fieldName, humanize, isGenerative, labelName } from "../tasks/config";
import { LazyExampleTranscript } from "../transcript/lazy";
import { ProbabilityBars } from "../ui/Verdict";
import { claimOf, intendedAnswer, modelAnswer } from "./queue";
import { EXAMPLE_VIEW_TEXT as T } from "./text";

interface Props {
  example: QueueExample;
  config: TaskConfig;
  askUser: boolean;
}

export function ExampleView(props: Props) {
  return isGenerative(props.config) ? <ConversationView {...props} /> : <WrittenExampleView {...props} />;
}

function WrittenExampleView({ example, config, askUser }: Props) {
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
      <AuthorFields example={example} config={config} />
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

/** The annotator's input fields (through the form specs). */
function AuthorFields({ example, config }: { example: QueueExample; config: TaskConfig }) {
  return (
    <>
      {parseFieldSpecs(config)
        .filter((spec) => spec.showWhen === "always" || example.input[spec.name] !== undefined)
        .map((spec) => (
          <div class="context-field" key={spec.name}>
            <h3 class="field-title">{T.writtenBy(fieldName(config, { name: spec.name, display_name: fieldTitle(spec) }))}</h3>
            <p class="context-text example-input" dir="auto" data-field={spec.name}>{displayValue(spec, example.input[spec.name])}</p>
          </div>
        ))}
    </>
  );
}

/** A conversation with a generative target: read whole, then the claim to check ("did the model fail as claimed?"), or,
 * when validators' ratings decide (fooling validator_rating), nobody's claim: the validator rates it. */
function ConversationView({ example, config, askUser }: Props) {
  const { goal, decider } = generativeOf(config);
  const local = localizeTask({ name: "", config });
  const claim = decider === "validators" ? "rated" : claimOf(example, askUser);
  const said = claim === "rated"
    ? T.validatorsDecide
    : askUser ? (claim === "failed" ? T.claimFailed : T.claimHeld) : claim === "failed" ? T.judgeFailed : T.judgeHeld;
  return (
    <article class="queue-example conversation-example" data-example-id={example.id} aria-label={T.label}>
      {goal && (
        <div class="context-field">
          <h3 class="field-title">{T.goal}</h3>
          <p class="context-text" dir="auto" data-testid="conversation-goal">{goal}</p>
        </div>
      )}
      <LazyExampleTranscript
        input={example.input}
        modelOutput={example.modelOutput}
        reader="other"
        idBase={`transcript-${example.id}`}
        headingLevel={3}
        categoryName={(category) => local.label(category, humanize(category))}
      />
      <AuthorFields example={example} config={config} />
      {example.explanation && <p class="hint">{T.explanation} <span dir="auto">{example.explanation}</span></p>}
      <p class="verdict-message" data-testid="claim-to-check" data-claim={claim}>{said}</p>
    </article>
  );
}
