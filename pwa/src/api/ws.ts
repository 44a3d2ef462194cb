/**
 * Live updates over graphql-transport-ws (same origin, /graphql). The token goes in connection_init;
 * the client reconnects by itself (lazy, retried with backoff) and the app re-reads live views after
 * every reconnect (a subscription starts with the current state, so re-subscribing is a re-read).
 */
import { createClient, type Client } from "graphql-ws";
import { currentLocale } from "../i18n/runtime";
import { reconnected } from "../lib/network";
import { GRAPHQL_PATH } from "./client";
import type { Document } from "./documents";

let client: Client | null = null;
let clientToken: string | null = null;
let tokenSource: () => string | null = () => null;

export function configureLive(options: { token: () => string | null }): void {
  tokenSource = options.token;
}

function url(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${GRAPHQL_PATH}`;
}

/** The open subscriptions: when the token changes (a sign-in here or in another tab, a campaign joined again), the
 * client is replaced and each of them is started again on the new one instead of ending silently. */
const active = new Set<{ start: () => () => void; stop: () => void }>();

function liveClient(): Client {
  const token = tokenSource();
  if (client && clientToken === token) return client;
  const replaced = client !== null || active.size > 0; // closeLive() may have left them without a client
  void client?.dispose();
  clientToken = token;
  let connectedBefore = false;
  let droppedUnexpectedly = false;
  client = createClient({
    url: url(),
    lazy: true,
    lazyCloseTimeout: 3_000,
    keepAlive: 20_000,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (retries) => {
      const delay = Math.min(30_000, 1_000 * 2 ** retries) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    },
    connectionParams: () => ({ locale: currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) }),
    on: {
      connected: () => {
        // Only a connection that dropped (not a lazy close) means live views may have missed events.
        if (connectedBefore && droppedUnexpectedly) reconnected.emit();
        connectedBefore = true;
        droppedUnexpectedly = false;
      },
      closed: (event) => {
        if ((event as CloseEvent | undefined)?.code !== 1000) droppedUnexpectedly = true;
      },
    },
  });
  if (replaced) for (const entry of active) entry.stop = entry.start();
  return client;
}

/** Subscribe; returns an unsubscribe function. `onData` gets each result's data. A subscription follows the token:
 * started again (so re-read: each starts with the current state) when the signed-in token changes. `onStart` is
 * called before each start (the first one and those), e.g. for a stream whose first event carries everything so far. */
export function subscribe<TData, TVariables>(
  document: Document<TData, TVariables>,
  variables: TVariables,
  onData: (data: TData) => void,
  onError?: (message: string) => void,
  onStart?: () => void,
): () => void {
  const entry = {
    start: () => {
      onStart?.();
      return liveClient().subscribe<TData>(
        { query: document, variables: variables as Record<string, unknown> },
        {
          next: (result) => {
            if (result.errors?.length) onError?.(result.errors.map((e) => e.message).join("; "));
            if (result.data) onData(result.data);
          },
          error: (error) => onError?.(error instanceof Error ? error.message : "The live connection failed."),
          complete: () => {},
        },
      );
    },
    stop: () => {},
  };
  entry.stop = entry.start();
  active.add(entry);
  return () => {
    active.delete(entry);
    entry.stop();
  };
}

export function closeLive(): void {
  void client?.dispose();
  client = null;
}

/** After the session changed (here or in another tab): move the open subscriptions to the new token now. */
export function refreshLive(): void {
  if (active.size > 0 && (client === null || clientToken !== tokenSource())) liveClient();
}
