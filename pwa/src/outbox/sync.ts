/**
 * Sending the outbox. No Background Sync: the app itself retries while it is open —
 *   on start, on the browser's `online` event (and any first success after failures), when the tab
 *   comes back to the foreground, after each new item, after signing in, and on a timer with
 *   exponential backoff after a failure.
 * Items go through `submitExamples` (idempotent on clientId), then votes and claims one by one. An item leaves the outbox only once
 * its result came back; a reply lost in transit is simply resent and answered `duplicate: true`.
 */
import { AuthExpiredError, NetworkError, describeError, request } from "../api/client";
import { CLAIM_FOOLED, CREATE_EXAMPLE, SUBMIT_EXAMPLES, VALIDATE_EXAMPLE } from "../api/documents";
import type { ClaimFooledResult, CreateExampleInput, CreateExampleResult, FoolingClaimed, ValidateExampleResult } from "../api/types";
import { viewAfterClaim } from "../annotate/verdict";
import { newClientId } from "../lib/uuid";
import { currentToken, currentUsername, session } from "../auth/session";
import { online, reconnected } from "../lib/network";
import { eventBus, observable } from "../lib/observable";
import { backoffDelay, nextBatch, newOutboxItem, planBatch, sendable, type OutboxItem, type SyncedRecord } from "./outbox";
import { afterClaim, newClaimItem, type ClaimOutboxItem } from "./claims";
import { allItems, applyPlan, applyVote, putItem, putItems, reloadOutbox, updateSyncedView } from "./store";
import { afterVote, newValidationItem, type ValidationOutboxItem } from "./validations";

export const SYNC_BATCH = 10; // ≤ the server's 100; small so one slow model call does not hold many items

export type SyncState =
  | { kind: "idle" }
  | { kind: "syncing" }
  | { kind: "waiting"; retryAt: number; error: string }
  | { kind: "signIn" };

export const syncState = observable<SyncState>({ kind: "idle" });

/** Fired for each example the outbox delivered (the annotate page shows its verdict). */
export const delivered = eventBus<SyncedRecord>();

/** Fired for each vote the server has stored (or refused for good). */
export const voteSettled = eventBus<{ item: ValidationOutboxItem; outcome: "done" | "refused" }>();

/** Fired for each claim ("Did the model get it wrong?") the server has stored (with its answer) or refused for good. */
export const claimSettled = eventBus<{ item: ClaimOutboxItem; outcome: "done" | "refused"; claimed: FoolingClaimed | null }>();

const inFlight = new Set<string>();
let failures = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let running = false;
let again = false;

function schedule(delay: number, error: string): void {
  if (timer) clearTimeout(timer);
  const retryAt = Date.now() + delay;
  syncState.set({ kind: "waiting", retryAt, error });
  timer = setTimeout(() => {
    timer = null;
    requestSync();
  }, delay);
}

/** Run the sync loop now (or right after the current run). */
export function requestSync(): void {
  if (running) {
    again = true;
    return;
  }
  void run();
}

async function withLock(body: () => Promise<void>): Promise<void> {
  // One tab sends at a time (duplicates would be harmless, but wasteful).
  if (navigator.locks?.request) {
    await navigator.locks.request("dynabench-outbox-sync", body);
  } else {
    await body();
  }
}

async function run(): Promise<void> {
  running = true;
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  try {
    await withLock(syncLoop);
  } finally {
    running = false;
    if (again) {
      again = false;
      void run();
    }
  }
}

async function syncLoop(): Promise<void> {
  for (;;) {
    const username = currentUsername();
    if (!username) return syncState.set({ kind: "idle" });
    if (!currentToken()) return syncState.set({ kind: "signIn" });
    const items = await allItems();
    const batch = nextBatch(items, username, inFlight, SYNC_BATCH);
    if (batch.length === 0) {
      const rest = sendable(items, username, inFlight);
      const votes = rest.filter((item): item is ValidationOutboxItem => item.kind === "validation");
      const claims = rest.filter((item): item is ClaimOutboxItem => item.kind === "claim");
      if (votes.length === 0 && claims.length === 0) {
        failures = 0;
        return syncState.set({ kind: "idle" });
      }
      syncState.set({ kind: "syncing" });
      if (votes.length && (await sendVotes(votes.slice(0, SYNC_BATCH)))) return;
      if (claims.length && (await sendClaims(claims.slice(0, SYNC_BATCH)))) return;
      failures = 0;
      continue;
    }
    syncState.set({ kind: "syncing" });
    const now = Date.now();
    const attempted = batch.map((item) => ({ ...item, attempts: item.attempts + 1, lastAttemptAt: now }));
    batch.forEach((item) => inFlight.add(item.clientId));
    let results: (CreateExampleResult | null)[];
    try {
      const data = await request(SUBMIT_EXAMPLES, { inputs: attempted.map((item) => item.input) }, { timeoutMs: 120_000 });
      results = data.submitExamples;
    } catch (error) {
      if (error instanceof AuthExpiredError) {
        await putItems(attempted.map((item) => ({ ...item, lastError: error.message })));
        return syncState.set({ kind: "signIn" });
      }
      failures += 1;
      const message = describeError(error);
      await putItems(attempted.map((item) => ({ ...item, lastError: message })));
      return schedule(backoffDelay(failures), message);
    } finally {
      batch.forEach((item) => inFlight.delete(item.clientId));
    }
    const plan = planBatch(attempted, results, Date.now());
    await applyPlan(plan);
    plan.delivered.forEach((record) => delivered.emit(record));
    if (plan.signInRequired) {
      session.update((s) => (s ? { ...s, expired: true } : s));
      return syncState.set({ kind: "signIn" });
    }
    if (plan.retry.length) {
      failures += 1;
      return schedule(backoffDelay(failures), plan.retry[0].lastError ?? "Some examples could not be sent yet.");
    }
    failures = 0;
  }
}

/**
 * Send votes one by one (validateExample takes one). Returns true when the loop must stop
 * (network failure → backoff scheduled, or sign-in required).
 */
async function sendVotes(votes: ValidationOutboxItem[]): Promise<boolean> {
  for (const vote of votes) {
    const attempted: ValidationOutboxItem = { ...vote, attempts: vote.attempts + 1, lastAttemptAt: Date.now() };
    inFlight.add(vote.clientId);
    let result: ValidateExampleResult;
    try {
      result = (await request(
        VALIDATE_EXAMPLE,
        { exampleId: vote.exampleId, label: vote.label, mode: vote.mode, note: vote.note, fields: vote.fields ?? {} },
        { timeoutMs: 60_000 },
      )).validateExample;
    } catch (error) {
      const message = describeError(error);
      await applyVote(attempted.clientId, { ...attempted, lastError: message });
      if (error instanceof AuthExpiredError) {
        syncState.set({ kind: "signIn" });
        return true;
      }
      failures += 1;
      schedule(backoffDelay(failures), message);
      return true;
    } finally {
      inFlight.delete(vote.clientId);
    }
    const next = afterVote(attempted, result);
    // Told before the outbox lets go of the vote: a page hiding the example while its vote is held drops it from its
    // queue first, so the example never shows again for a moment (nor its count goes back up).
    if (next.outcome === "done" || next.outcome === "refused") voteSettled.emit({ item: next.item ?? attempted, outcome: next.outcome });
    await applyVote(attempted.clientId, next.item);
    if (next.outcome === "signIn") {
      session.update((s) => (s ? { ...s, expired: true } : s));
      syncState.set({ kind: "signIn" });
      return true;
    }
    if (next.outcome === "retry") {
      failures += 1;
      schedule(backoffDelay(failures), next.item?.lastError ?? "Some votes could not be sent yet.");
      return true;
    }
  }
  return false;
}

/** Send claims one by one (claimFooled takes one); true when the loop must stop, as for votes. */
async function sendClaims(claims: ClaimOutboxItem[]): Promise<boolean> {
  for (const claim of claims) {
    const attempted: ClaimOutboxItem = { ...claim, attempts: claim.attempts + 1, lastAttemptAt: Date.now() };
    inFlight.add(claim.clientId);
    let result: ClaimFooledResult;
    try {
      const input = { exampleId: claim.exampleId, modelWasWrong: claim.modelWasWrong, clientId: claim.claimId };
      result = (await request(CLAIM_FOOLED, { input }, { timeoutMs: 60_000 })).claimFooled;
    } catch (error) {
      const message = describeError(error);
      await applyVote(attempted.clientId, { ...attempted, lastError: message });
      if (error instanceof AuthExpiredError) {
        syncState.set({ kind: "signIn" });
        return true;
      }
      failures += 1;
      schedule(backoffDelay(failures), message);
      return true;
    } finally {
      inFlight.delete(claim.clientId);
    }
    const next = afterClaim(attempted, result);
    await applyVote(attempted.clientId, next.item);
    if (next.outcome === "done" && result.__typename === "FoolingClaimed") {
      const claimed = result;
      // The delivered example's record (outbox page) shows the claim as its verdict.
      await updateSyncedView(claimed.example.clientId, (record) => ({ ...record, view: viewAfterClaim(record.view, claimed) }));
      claimSettled.emit({ item: attempted, outcome: "done", claimed });
    }
    if (next.outcome === "refused") claimSettled.emit({ item: next.item ?? attempted, outcome: "refused", claimed: null });
    if (next.outcome === "signIn") {
      session.update((s) => (s ? { ...s, expired: true } : s));
      syncState.set({ kind: "signIn" });
      return true;
    }
    if (next.outcome === "retry") {
      failures += 1;
      schedule(backoffDelay(failures), next.item?.lastError ?? "Some answers could not be sent yet.");
      return true;
    }
  }
  return false;
}

/** Record a claim ("Did the model get it wrong?"): written to the outbox first, then sent by the sync loop. */
export async function castClaim(
  claim: Parameters<typeof newClaimItem>[0],
  meta: { username: string; taskCode: string; taskName: string },
): Promise<ClaimOutboxItem> {
  const item = newClaimItem(claim, meta, Date.now(), newClientId());
  await putItem(item);
  requestSync();
  return item;
}

/** Record a vote: written to the outbox first (nothing is lost offline), then sent by the sync loop. */
export async function castVote(
  vote: Parameters<typeof newValidationItem>[0],
  meta: { username: string; taskCode: string; taskName: string },
): Promise<ValidationOutboxItem> {
  const item = newValidationItem(vote, meta, Date.now());
  await putItem(item);
  requestSync();
  return item;
}

export type SubmitOutcome =
  | { kind: "delivered"; record: SyncedRecord }
  | { kind: "queued"; item: OutboxItem; reason: string }
  | { kind: "refused"; item: OutboxItem }
  | { kind: "signIn"; item: OutboxItem };

/**
 * Submit one example now. It is written to the outbox first (so nothing is lost if the page dies),
 * then sent with createExample; on any network failure it simply stays for the sync loop.
 */
export async function submitExample(
  input: CreateExampleInput & { clientId: string },
  meta: { username: string; taskCode: string; taskName: string },
): Promise<SubmitOutcome> {
  const item = newOutboxItem(input, meta, Date.now());
  await putItem(item);
  if (!online.get()) {
    requestSync();
    return { kind: "queued", item, reason: "You are offline: the example is saved and will be sent when you reconnect." };
  }
  inFlight.add(item.clientId);
  const attempted = { ...item, attempts: 1, lastAttemptAt: Date.now() };
  let result: CreateExampleResult;
  try {
    result = (await request(CREATE_EXAMPLE, { input: attempted.input }, { timeoutMs: 60_000 })).createExample;
  } catch (error) {
    inFlight.delete(item.clientId);
    await putItem({ ...attempted, lastError: describeError(error) });
    if (error instanceof AuthExpiredError) return { kind: "signIn", item };
    if (!(error instanceof NetworkError)) {
      // The server answered with errors we cannot fix by waiting briefly; keep it and retry later.
      schedule(backoffDelay(++failures), describeError(error));
    } else {
      requestSync();
    }
    return { kind: "queued", item, reason: `${describeError(error)} The example is saved and will be sent automatically.` };
  }
  inFlight.delete(item.clientId);
  const plan = planBatch([attempted], [result], Date.now());
  await applyPlan(plan);
  if (plan.delivered.length) {
    requestSync(); // connectivity is fine: flush anything else that waits
    return { kind: "delivered", record: plan.delivered[0] };
  }
  if (plan.refused.length) return { kind: "refused", item: plan.refused[0] };
  if (plan.signInRequired) {
    session.update((s) => (s ? { ...s, expired: true } : s));
    return { kind: "signIn", item };
  }
  schedule(backoffDelay(++failures), plan.retry[0]?.lastError ?? "Will retry.");
  return { kind: "queued", item, reason: "The example is saved and will be sent again shortly." };
}

/** Start the triggers. Call once at app start. */
export function startSync(): void {
  void reloadOutbox().then(requestSync);
  reconnected.on(() => {
    failures = 0;
    requestSync();
  });
  window.addEventListener("online", () => {
    failures = 0;
    requestSync();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") requestSync();
  });
  let previousUser = currentUsername();
  let previousToken = currentToken();
  session.subscribe(() => {
    const user = currentUsername();
    const token = currentToken();
    if (user !== previousUser || token !== previousToken) {
      previousUser = user;
      previousToken = token;
      failures = 0;
      requestSync();
    }
  });
}
