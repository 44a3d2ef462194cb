/**
 * Preparing a round's model for offline use: its files (and the runtime's wasm, served by the PWA build) are
 * downloaded, checked against their sha256, and kept in the Cache API with a record per round. Nothing here
 * loads unless the annotator uses the feature (the module is part of the offline chunk).
 */
import wasmUrl from "onnxruntime-web/ort-wasm-simd-threaded.wasm?url";
import { CACHE_NAME, recordUrl, toHex, totalBytes, type OfflineModel, type PreparedModel } from "./model";

export type Progress = (done: number, total: number) => void;

const hasCaches = () => typeof caches !== "undefined" && typeof crypto !== "undefined" && !!crypto.subtle;

export async function preparedFor(roundId: string): Promise<PreparedModel | null> {
  if (!hasCaches()) return null;
  const cache = await caches.open(CACHE_NAME);
  const response = await cache.match(recordUrl(roundId));
  if (!response) return null;
  const prepared = (await response.json()) as PreparedModel;
  // Complete only while every file is still there (a browser may evict parts of the cache).
  const urls = [prepared.wasmUrl, ...prepared.model.files.map((f) => f.url)];
  const present = await Promise.all(urls.map((url) => cache.match(url).then(Boolean)));
  return present.every(Boolean) ? prepared : null;
}

async function download(url: string, expected: { sha256?: string; bytes?: number }, onBytes: (n: number) => void): Promise<Response> {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok || !response.body) throw new Error(`download failed: ${response.status}`);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.byteLength);
  }
  const blob = new Blob(chunks as BlobPart[]);
  const bytes = await blob.arrayBuffer();
  if (expected.sha256 && toHex(await crypto.subtle.digest("SHA-256", bytes)) !== expected.sha256) {
    throw new Error("checksum mismatch");
  }
  const type = response.headers.get("content-type") ?? "application/octet-stream";
  return new Response(bytes, { headers: { "content-type": type, "content-length": String(bytes.byteLength) } });
}

/** The runtime's wasm size in bytes (the kept copy's, else the server's HEAD answer), or null when unknown. */
export async function runtimeBytes(): Promise<number | null> {
  try {
    const cached = hasCaches() ? await (await caches.open(CACHE_NAME)).match(wasmUrl) : undefined;
    const response = cached ?? (await fetch(wasmUrl, { method: "HEAD" }));
    const length = Number(response.headers.get("content-length"));
    return response.ok && length > 0 ? length : null;
  } catch {
    return null; // offline, and not kept yet
  }
}

/**
 * Download the round's model (skipping files already cached with the right checksum) and record it. The progress
 * counts the runtime's wasm too when its size is known (`runtime`), so its total is the download size shown before.
 */
export async function prepareOffline(roundId: string, model: OfflineModel, onProgress: Progress = () => {}, runtime: number | null = null): Promise<PreparedModel> {
  if (!hasCaches()) throw new Error("this browser cannot keep files offline");
  const cache = await caches.open(CACHE_NAME);
  const wanted = [{ url: wasmUrl, bytes: runtime ?? 0 }, ...model.files];
  let total = totalBytes(model) + (runtime ?? 0);
  let done = 0;
  for (const file of wanted) {
    if (await cache.match(file.url)) {
      done += file.bytes;
      onProgress(done, total);
      continue;
    }
    const response = await download(file.url, file, (n) => {
      done += n;
      if (done > total) total = done;
      onProgress(done, total);
    });
    await cache.put(file.url, response);
  }
  const wasmBytes = Number((await cache.match(wasmUrl))?.headers.get("content-length") ?? 0);
  const prepared: PreparedModel = { roundId, model, wasmUrl, bytes: totalBytes(model) + wasmBytes, preparedAt: Date.now() };
  await cache.put(recordUrl(roundId), new Response(JSON.stringify(prepared), { headers: { "content-type": "application/json" } }));
  await pruneUnused(cache);
  return prepared;
}

/** Forget the round's model; files no other prepared round uses leave the cache. */
export async function removeOffline(roundId: string): Promise<void> {
  if (!hasCaches()) return;
  const cache = await caches.open(CACHE_NAME);
  await cache.delete(recordUrl(roundId));
  await pruneUnused(cache);
}

/** Delete cached files no prepared round's record lists (an earlier version's, after preparing again). */
async function pruneUnused(cache: Cache): Promise<void> {
  const keep = new Set<string>();
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.startsWith("/__offline/prepared/")) continue;
    const other = (await (await cache.match(request))!.json()) as PreparedModel;
    keep.add(new URL(other.wasmUrl, location.href).href);
    for (const f of other.model.files) keep.add(new URL(f.url, location.href).href);
  }
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.startsWith("/__offline/") && !keep.has(request.url)) await cache.delete(request);
  }
}
