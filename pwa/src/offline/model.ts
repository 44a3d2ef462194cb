/**
 * The offline model's description (`Round.offlineModel`), what is kept on the device for it, and the pure rules
 * around it: truncation as the server's tokenizer does it (longest first), sizes, and comparing a provisional
 * label with the server's.
 */
import type { RoundOfflineModelQuery } from "../api/generated/types";

type RoundWithModel = Extract<NonNullable<RoundOfflineModelQuery["node"]>, { offlineModel: unknown }>;
export type OfflineModel = NonNullable<RoundWithModel["offlineModel"]>;
export type OfflineModelFile = OfflineModel["files"][number];

/** What the device keeps per round: the model and the runtime's wasm, all in the Cache API. */
export interface PreparedModel {
  roundId: string;
  model: OfflineModel;
  wasmUrl: string;
  bytes: number;
  preparedAt: number;
}

export const CACHE_NAME = "dynabench-offline-models-v1";
export const RECORD_PREFIX = "/__offline/prepared/";

export const recordUrl = (roundId: string) => `${RECORD_PREFIX}${encodeURIComponent(roundId)}`;

export const totalBytes = (model: OfflineModel) => model.files.reduce((sum, f) => sum + f.bytes, 0);

/** What preparing a model downloads: its files and the runtime's wasm (null: the wasm's size is not known). */
export interface SizeFacts {
  model: number;
  runtime: number | null;
  total: number;
}

export function sizeFacts(model: OfflineModel, runtimeBytes: number | null): SizeFacts {
  const files = totalBytes(model);
  const runtime = runtimeBytes !== null && runtimeBytes > 0 ? runtimeBytes : null;
  return { model: files, runtime, total: files + (runtime ?? 0) };
}

/** The same figures for a prepared model, from what the device keeps (its record's bytes: files + wasm). */
export function storedFacts(prepared: PreparedModel): SizeFacts {
  return sizeFacts(prepared.model, prepared.bytes - totalBytes(prepared.model));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The part of a tokenizer.json post-processor the encoder needs (BERT-style TemplateProcessing). */
export interface Template {
  single: TemplatePiece[];
  pair: TemplatePiece[];
  special: Record<string, number[]>;
}

export type TemplatePiece = { special: string; typeId: number } | { sequence: "A" | "B"; typeId: number };

export function readTemplate(tokenizerJson: unknown): Template {
  const post = (tokenizerJson as { post_processor?: Record<string, unknown> })?.post_processor;
  if (!post || post.type !== "TemplateProcessing") throw new Error("unsupported tokenizer post-processor");
  const pieces = (list: unknown): TemplatePiece[] =>
    (list as Record<string, { id: string; type_id: number }>[]).map((p) =>
      p.SpecialToken
        ? { special: p.SpecialToken.id, typeId: p.SpecialToken.type_id }
        : { sequence: p.Sequence!.id as "A" | "B", typeId: p.Sequence!.type_id },
    );
  const special: Record<string, number[]> = {};
  for (const [name, value] of Object.entries(post.special_tokens as Record<string, { ids: number[] }>)) {
    special[name] = value.ids;
  }
  return { single: pieces(post.single), pair: pieces(post.pair), special };
}

/**
 * How many tokens of each sequence are kept: the Rust tokenizers' "longest_first" rule (what the server's
 * tokenizer does with `truncation=True, max_length`), `budget` being max_length minus the special tokens.
 */
export function keptLengths(n1: number, n2: number | null, budget: number): [number, number] {
  if (n2 === null) return [Math.min(n1, Math.max(0, budget)), 0];
  if (n1 + n2 <= budget) return [n1, n2];
  let a = n1;
  let b = n2;
  const swap = a > b;
  if (swap) [a, b] = [b, a];
  // a is the shorter sequence
  if (a > budget) b = a;
  else b = Math.max(a, budget - a);
  if (a + b > budget) {
    a = Math.floor(budget / 2);
    b = a + (budget % 2);
  }
  const keptShort = Math.min(swap ? n2 : n1, a);
  const keptLong = Math.min(swap ? n1 : n2, b);
  return swap ? [keptLong, keptShort] : [keptShort, keptLong];
}

export interface Encoded {
  inputIds: number[];
  attentionMask: number[];
  tokenTypeIds: number[];
}

/** Token ids of the fields (special tokens not added) → the model's inputs, truncated and wrapped by the template. */
export function encodeWithTemplate(sequences: number[][], template: Template, maxLength: number): Encoded {
  if (sequences.length < 1 || sequences.length > 2) throw new Error("one or two input fields are supported");
  const pieces = sequences.length === 2 ? template.pair : template.single;
  const specials = pieces.reduce((n, p) => n + ("special" in p ? (template.special[p.special]?.length ?? 0) : 0), 0);
  const [k1, k2] = keptLengths(sequences[0].length, sequences.length === 2 ? sequences[1].length : null, maxLength - specials);
  const kept = { A: sequences[0].slice(0, k1), B: (sequences[1] ?? []).slice(0, k2) };
  const inputIds: number[] = [];
  const tokenTypeIds: number[] = [];
  for (const piece of pieces) {
    const ids = "special" in piece ? template.special[piece.special] ?? [] : kept[piece.sequence];
    for (const id of ids) {
      inputIds.push(id);
      tokenTypeIds.push(piece.typeId);
    }
  }
  return { inputIds, attentionMask: inputIds.map(() => 1), tokenTypeIds };
}

export function argmaxLabel(probs: ArrayLike<number>, labels: string[]): string {
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] > probs[best]) best = i;
  return labels[best];
}

/** The same export (name, version and every file's checksum): a prepared copy of another one is outdated. */
export function sameModel(a: OfflineModel, b: OfflineModel): boolean {
  const files = (m: OfflineModel) => m.files.map((f) => `${f.name}:${f.sha256}`).sort().join(",");
  return a.name === b.name && a.version === b.version && files(a) === files(b);
}

export type Comparison = "agree" | "differ" | "unknown";

/** The provisional label against the server's (labels compare case-insensitively, as the verdict does). */
export function compareLabels(provisional: string | null, server: string | null): Comparison {
  if (!provisional || !server) return "unknown";
  return provisional.trim().toLowerCase() === server.trim().toLowerCase() ? "agree" : "differ";
}
