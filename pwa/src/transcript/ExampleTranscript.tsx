/**
 * A submitted conversation (a generative task's example), read from what the example stores (transcript.ts): the
 * attack categories as tags, what the model was told first (collapsed), then every message as a bubble — who wrote
 * it first, the text always plain (never HTML, never markdown), a stopped or failed reply noted, and each reply's
 * judge score when the task has a judge. `ExampleTranscript` shows it all (the validate page); `TranscriptPreview`
 * shows the last exchange with a button that shows the whole conversation (My examples, browse cards). Its own chunk,
 * loaded when a page first shows a conversation (lazy.ts).
 */
import { useState } from "preact/hooks";
import { formatNumber } from "../i18n/format";
import { humanize } from "../tasks/config";
import { Bubble, BubbleText } from "./Bubble";
import { judgeFails, previewOf, readTranscript, type StoredTranscript, type TranscriptMessage } from "./transcript";
import { TRANSCRIPT_TEXT as T } from "./text";
import "./transcript.css";

export interface ExampleTranscriptProps {
  input: Record<string, unknown>;
  modelOutput: Record<string, unknown> | null;
  /** "self": the reader wrote it (My examples: "You"); "other": someone else did ("Author"). */
  reader: "self" | "other";
  /** Unique on the page: the ids of the parts are made from it. */
  idBase: string;
  /** An attack category's display name (a task may translate it); the humanized identifier by default. */
  categoryName?: (category: string) => string;
  /** The full view's heading level (a section named by its heading); none: a plain block (inside a card). */
  headingLevel?: 3 | 4;
}

export function ExampleTranscript(props: ExampleTranscriptProps) {
  const transcript = readTranscript(props.input, props.modelOutput);
  if (!transcript) return null;
  return <FullTranscript {...props} transcript={transcript} />;
}

function FullTranscript({ transcript, reader, idBase, categoryName = humanize, headingLevel }: ExampleTranscriptProps & { transcript: StoredTranscript }) {
  const titleId = `${idBase}-title`;
  const Heading = headingLevel === 4 ? "h4" : "h3";
  // With a heading, a section named by it; without (inside a card's preview), a plain block.
  const Box = headingLevel ? "section" : "div";
  return (
    <Box class="example-transcript" data-testid="example-transcript" aria-labelledby={headingLevel ? titleId : undefined}>
      {headingLevel && <Heading id={titleId} class="field-title">{T.label}</Heading>}
      <Categories categories={transcript.categories} categoryName={categoryName} idBase={idBase} />
      {transcript.system && (
        <details class="disclosure transcript-system" data-testid="system-text">
          <summary>{T.systemTitle}</summary>
          <p class="system-text" dir="auto">{transcript.system}</p>
        </details>
      )}
      {transcript.messages.length === 0 ? <p class="hint">{T.noMessages}</p> : (
        <ol class="transcript">
          {transcript.messages.map((message, i) => (
            <Message key={i} message={message} reader={reader} threshold={transcript.threshold} />
          ))}
        </ol>
      )}
    </Box>
  );
}

function Categories({ categories, categoryName, idBase }: { categories: string[]; categoryName: (c: string) => string; idBase: string }) {
  if (categories.length === 0) return null;
  const id = `${idBase}-categories`;
  return (
    <div class="transcript-categories">
      <span class="hint" id={id}>{T.categoriesTitle}</span>
      <ul class="tag-list" aria-labelledby={id} data-testid="transcript-categories">
        {categories.map((category) => (
          <li key={category} class="status-tag" data-category={category}>{categoryName(category)}</li>
        ))}
      </ul>
    </div>
  );
}

function Message({ message, reader, threshold }: { message: TranscriptMessage; reader: "self" | "other"; threshold: number | null }) {
  if (message.role === "user") {
    return (
      <Bubble from="author" who={reader === "self" ? T.you : T.author} testId="transcript-message">
        <BubbleText text={message.content} testId="message-text" />
      </Bubble>
    );
  }
  return (
    <Bubble from="model" who={T.model} testId="transcript-reply" status={message.status ?? "DONE"}>
      <BubbleText text={message.content || T.emptyReply} testId="reply-text" />
      {message.status === "STOPPED" && <p class="hint reply-note">{T.stoppedNote}</p>}
      {message.status === "FAILED" && <p class="hint reply-note">{T.failedNote}</p>}
      {message.judgeScore !== null && <JudgeLine score={message.judgeScore} threshold={threshold} />}
    </Bubble>
  );
}

function JudgeLine({ score, threshold }: { score: number; threshold: number | null }) {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  if (threshold === null) return <p class="judge-line" data-testid="judge-score">{T.judgeScoreOnly(formatNumber(score, digits))}</p>;
  const fails = judgeFails(score, threshold);
  return (
    <p class="judge-line" data-testid="judge-score" data-fails={fails ? "true" : "false"}>
      {T.judgeScore(formatNumber(score, digits), formatNumber(threshold, digits))}{" "}
      <strong class={fails ? "judge-fails" : "judge-holds"}>{fails ? T.judgeFailed : T.judgePassed}</strong>
    </p>
  );
}

/** The last exchange of a conversation, and a button that shows the whole of it (and back). */
export function TranscriptPreview(props: ExampleTranscriptProps) {
  const [open, setOpen] = useState(false);
  const transcript = readTranscript(props.input, props.modelOutput);
  if (!transcript) return null;
  const { user, reply, hidden } = previewOf(transcript);
  const fullId = `${props.idBase}-full`;
  const more = hidden > 0 || transcript.system !== "";
  return (
    <div class="transcript-preview" data-testid="transcript-preview" data-open={open ? "true" : "false"}>
      {!open && (
        <>
          <Categories categories={transcript.categories} categoryName={props.categoryName ?? humanize} idBase={`${props.idBase}-p`} />
          {user || reply ? (
            <ol class="transcript" aria-label={T.previewLabel}>
              {user && <Message message={user} reader={props.reader} threshold={transcript.threshold} />}
              {reply && <Message message={reply} reader={props.reader} threshold={transcript.threshold} />}
            </ol>
          ) : <p class="hint">{T.noMessages}</p>}
        </>
      )}
      {more && (
        <button type="button" class="transcript-toggle" aria-expanded={open ? "true" : "false"} aria-controls={open ? fullId : undefined}
          onClick={() => setOpen(!open)}>
          {open ? T.showLess : hidden > 0 ? T.showAll(hidden) : T.showWhole}
        </button>
      )}
      {open && (
        <div id={fullId}>
          <FullTranscript {...props} transcript={transcript} headingLevel={undefined} />
        </div>
      )}
    </div>
  );
}
