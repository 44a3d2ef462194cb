/**
 * POST /graphql with the session token. Distinguishes the failures the app treats differently:
 *   NetworkError      — no answer (offline, connection reset, timeout, 5xx/429): try again later
 *   AuthExpiredError  — the token was refused: sign in again
 *   GraphQLError      — the server answered with errors (a bug or a schema mismatch): show it
 */
import { currentLocale } from "../i18n/runtime";
import { markReachable, markUnreachable } from "../lib/network";
import type { Document } from "./documents";
import { NETWORK_TEXT as T } from "./text";
import { postWithProgress } from "./xhr";

export class NetworkError extends Error {
  override name = "NetworkError";
}

export class GraphQLError extends Error {
  override name = "GraphQLError";
  constructor(message: string, readonly codes: string[] = []) {
    super(message);
  }
}

export class AuthExpiredError extends GraphQLError {
  override name = "AuthExpiredError";
}

export const GRAPHQL_PATH = "/graphql";
const AUTH_CODES = new Set(["AUTHENTICATION_FAILED", "AUTHENTICATION_REQUIRED"]);

let tokenSource: () => string | null = () => null;
let onAuthExpired: () => void = () => {};

/** Wire the session in (auth/session.ts calls this; keeps api/ free of auth imports). */
export function configureClient(options: { token: () => string | null; authExpired: () => void }): void {
  tokenSource = options.token;
  onAuthExpired = options.authExpired;
}

export interface RequestOptions {
  token?: string | null;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** requestUpload's options: `onProgress` gets the bytes sent so far and the total (0 when unknown). */
export interface UploadOptions extends RequestOptions {
  onProgress?: (sent: number, total: number) => void;
}

/** The caller aborted the request through its `signal` (e.g. a Cancel button). */
export class CancelledError extends Error {
  override name = "CancelledError";
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function request<TData, TVariables>(
  document: Document<TData, TVariables>,
  variables: TVariables,
  options: RequestOptions = {},
): Promise<TData> {
  const token = options.token === undefined ? tokenSource() : options.token;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 30_000);
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  let response: Response;
  try {
    response = await fetch(GRAPHQL_PATH, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/graphql-response+json, application/json",
        "Accept-Language": currentLocale(), // the server says its refusals in the UI's language
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: document, variables }),
      signal: controller.signal,
      cache: "no-store",
    });
  } catch (error) {
    markUnreachable();
    throw new NetworkError(controller.signal.aborted ? T.timedOut : T.unreachable);
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 500 || response.status === 429 || response.status === 408) {
    throw new NetworkError(T.unavailable(response.status));
  }
  return readAnswer<TData>(response, true);
}

/**
 * A GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec):
 * `operations` (the query with null in place of each file), `map` (part name → variable paths), then
 * one part per file. Used for model archives and datasets.
 */
export async function requestUpload<TData, TVariables>(
  document: Document<TData, TVariables>,
  variables: TVariables,
  files: Record<string, File | Blob>, // variable name → file
  options: UploadOptions = {},
): Promise<TData> {
  const token = options.token === undefined ? tokenSource() : options.token;
  const form = new FormData();
  const names = Object.keys(files);
  form.append("operations", JSON.stringify({ query: document, variables: { ...variables, ...Object.fromEntries(names.map((n) => [n, null])) } }));
  form.append("map", JSON.stringify(Object.fromEntries(names.map((n, i) => [String(i), [`variables.${n}`]]))));
  names.forEach((name, i) => {
    const file = files[name];
    form.append(String(i), file, file instanceof File ? file.name : name);
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 300_000);
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const headers = {
    Accept: "application/graphql-response+json, application/json",
    "Accept-Language": currentLocale(),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
  let response: Response;
  try {
    response = options.onProgress // XMLHttpRequest: fetch reports no upload progress
      ? await postWithProgress(GRAPHQL_PATH, form, headers, controller.signal, options.onProgress)
      : await fetch(GRAPHQL_PATH, { method: "POST", headers, body: form, signal: controller.signal, cache: "no-store" });
  } catch {
    if (options.signal?.aborted) throw new CancelledError(T.uploadCancelled);
    markUnreachable();
    throw new NetworkError(controller.signal.aborted ? T.uploadTooLong : T.unreachable);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 413) throw new GraphQLError(T.fileTooLarge);
  if (response.status >= 500 || response.status === 429) throw new NetworkError(T.unavailable(response.status));
  return readAnswer<TData>(response, false);
}

/** The data of a GraphQL answer, or the error it carries (an expired session signs the user out). */
async function readAnswer<TData>(response: Response, cutOffMeansUnreachable: boolean): Promise<TData> {
  let body: GraphQLResponse<TData>;
  try {
    body = (await response.json()) as GraphQLResponse<TData>;
  } catch {
    if (cutOffMeansUnreachable) markUnreachable();
    throw new NetworkError(T.cutOff(response.status));
  }
  markReachable();
  if (body.errors?.length) {
    const codes = body.errors.map((e) => e.extensions?.code ?? "");
    const message = body.errors.map((e) => e.message).join("; ");
    if (codes.some((c) => AUTH_CODES.has(c))) {
      onAuthExpired();
      throw new AuthExpiredError(message, codes);
    }
    throw new GraphQLError(message, codes);
  }
  if (!body.data) throw new GraphQLError(T.empty(response.status));
  return body.data;
}

/** The message to show a person for any error thrown by request(). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
