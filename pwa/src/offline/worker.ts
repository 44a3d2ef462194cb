/// <reference lib="webworker" />
/**
 * The offline model's runner (a module Web Worker): onnxruntime-web on its single-threaded wasm backend, and the
 * tokenizer of the model's tokenizer.json (@huggingface/tokenizers). Every file comes from the Cache API, where
 * `prepareOffline` put it after checking its sha256, so this works with no network at all.
 *
 * Messages: { id, roundId, key?, fields } → { id, label, probs } | { id, error } (a new key reloads the model).
 */
import * as ort from "onnxruntime-web/wasm";
import { Tokenizer } from "@huggingface/tokenizers";
import { CACHE_NAME, argmaxLabel, encodeWithTemplate, readTemplate, recordUrl, type PreparedModel, type Template } from "./model";

interface Loaded {
  key: string;
  prepared: PreparedModel;
  session: ort.InferenceSession;
  tokenizer: Tokenizer;
  template: Template;
}

let loading: Promise<Loaded> | null = null;
let loadingKey = "";

async function cached(cache: Cache, url: string): Promise<Response> {
  const response = await cache.match(url);
  if (!response) throw new Error(`not prepared: ${url}`);
  return response;
}

async function load(roundId: string): Promise<Loaded> {
  const cache = await caches.open(CACHE_NAME);
  const prepared = (await (await cached(cache, recordUrl(roundId))).json()) as PreparedModel;
  const file = (name: string) => prepared.model.files.find((f) => f.name === name)!.url;
  if (!ort.env.wasm.wasmBinary) {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmBinary = await (await cached(cache, prepared.wasmUrl)).arrayBuffer();
  }
  const [modelBytes, tokenizerJson] = await Promise.all([
    cached(cache, file("model.onnx")).then((r) => r.arrayBuffer()),
    cached(cache, file("tokenizer.json")).then((r) => r.json()),
  ]);
  const session = await ort.InferenceSession.create(new Uint8Array(modelBytes), { executionProviders: ["wasm"] });
  const tokenizer = new Tokenizer(tokenizerJson, {});
  return { key: `${prepared.model.name}/${prepared.model.version}`, prepared, session, tokenizer, template: readTemplate(tokenizerJson) };
}

async function loaded(roundId: string, key: string): Promise<Loaded> {
  if (!loading || loadingKey !== key) {
    loadingKey = key;
    loading = load(roundId);
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

async function classify(roundId: string, key: string, fields: Record<string, unknown>): Promise<{ label: string; probs: number[] }> {
  const { prepared, session, tokenizer, template } = await loaded(roundId, key);
  const model = prepared.model;
  const sequences = model.inputs.map((name) => tokenizer.encode(String(fields[name] ?? ""), { add_special_tokens: false }).ids);
  const encoded = encodeWithTemplate(sequences, template, model.maxLength);
  const n = encoded.inputIds.length;
  const tensor = (values: number[]) => new ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), [1, n]);
  const all: Record<string, ort.Tensor> = {
    input_ids: tensor(encoded.inputIds),
    attention_mask: tensor(encoded.attentionMask),
    token_type_ids: tensor(encoded.tokenTypeIds),
  };
  const feeds = Object.fromEntries(model.inputNames.map((name) => [name, all[name]]));
  const output = await session.run(feeds);
  const probs = Array.from(output[session.outputNames[0]].data as Float32Array);
  return { label: argmaxLabel(probs, model.labels), probs };
}

self.onmessage = async (event: MessageEvent<{ id: number; roundId: string; key?: string; fields: Record<string, unknown> }>) => {
  const { id, roundId, key, fields } = event.data;
  try {
    self.postMessage({ id, ...(await classify(roundId, key ?? roundId, fields)) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
