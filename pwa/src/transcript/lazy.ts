/**
 * The transcript of a submitted conversation, loaded on first use (its own chunk): pages that may show a generative
 * task's example render these, and nothing shows until the chunk has loaded (precached, so offline too).
 */
import { lazyWidget } from "../lib/lazy";
import type { ExampleTranscriptProps } from "./ExampleTranscript";

const load = () => import("./ExampleTranscript");

export const LazyExampleTranscript = lazyWidget<ExampleTranscriptProps>(() => load().then((m) => m.ExampleTranscript));
export const LazyTranscriptPreview = lazyWidget<ExampleTranscriptProps>(() => load().then((m) => m.TranscriptPreview));
