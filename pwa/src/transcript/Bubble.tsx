/**
 * One message bubble of a conversation, shared by the chat (pwa/src/chat/Transcript.tsx) and a submitted
 * conversation's transcript (ExampleTranscript.tsx): who wrote it first (visible, so screen readers read it before
 * the text), then the text and whatever notes follow. Text is always plain (a text node, `white-space: pre-wrap`).
 */
import type { ComponentChildren } from "preact";
import "./bubbles.css";

interface BubbleProps {
  from: "author" | "model";
  who: string;
  testId: string;
  status?: string;
  busy?: boolean;
  children: ComponentChildren;
}

export function Bubble({ from, who, testId, status, busy, children }: BubbleProps) {
  return (
    <li class={`bubble from-${from}`} data-testid={testId} data-status={status} aria-busy={busy ? "true" : undefined}>
      <span class="who">{who}</span>
      {children}
    </li>
  );
}

/** A message's text as written: a text node (never HTML, never markdown), its direction from its own letters. */
export function BubbleText({ text, testId }: { text: string; testId?: string }) {
  return <p class="bubble-text" dir="auto" data-testid={testId}>{text}</p>;
}
