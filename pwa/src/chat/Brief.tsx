/** The chat's brief: the annotator's goal, how many messages the task allows, the scenario from the context pool (or
 * why it is not there yet), and the "new conversation" action; collapsible once the conversation has started. */
import type { ComponentChildren } from "preact";
import { CHAT_TEXT as T } from "./text";

export function Brief(props: {
  open: boolean;
  onToggle: () => void;
  goal: string;
  modeHint: string;
  contextFields: [string, string][];
  titles: Record<string, string>;
  status: string | null; // null once the scenario is there
  children: ComponentChildren;
}) {
  return (
    <section class="card chat-brief" aria-labelledby="chat-goal-title" data-open={props.open ? "true" : "false"}>
      <div class="brief-head">
        <h2 id="chat-goal-title">{T.goalTitle}</h2>
        <button type="button" class="chat-small brief-toggle" aria-expanded={props.open} aria-controls="chat-brief-body"
          onClick={props.onToggle}>
          {props.open ? T.briefHide : T.briefShow}
        </button>
      </div>
      <div id="chat-brief-body" class="brief-body">
        <p class="goal" dir="auto" data-testid="chat-goal">{props.goal}</p>
        <p class="hint">{props.modeHint}</p>
        {props.contextFields.length > 0 && (
          <div class="scenario">
            {props.contextFields.map(([name, text]) => (
              <div class="context-field" key={name}>
                <h3 class="field-title">{props.titles[name] ?? T.scenarioTitle}</h3>
                <p class="context-text" dir="auto">{text}</p>
              </div>
            ))}
          </div>
        )}
        {props.status !== null && <p role="status">{props.status}</p>}
        <div class="actions">{props.children}</div>
      </div>
    </section>
  );
}
