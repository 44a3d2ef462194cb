/**
 * The signed-in user and their session token, kept in localStorage so that the app (and the outbox)
 * can act for them after a reload or while offline. The token is a JWT; when the API refuses it the
 * session is marked expired (the user stays "known" so their outbox and drafts stay theirs).
 */
import { configureClient, request } from "../api/client";
import { LOG_IN, SIGN_UP } from "../api/documents";
import type { AuthResult, ErrorResult, User } from "../api/types";
import { closeLive, configureLive, refreshLive } from "../api/ws";
import { observable } from "../lib/observable";

export interface Session {
  token: string;
  user: User;
  expired: boolean;
}

const KEY = "dynabench.session";

function load(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export const session = observable<Session | null>(load());

session.subscribe((value) => {
  if (value) localStorage.setItem(KEY, JSON.stringify(value));
  else localStorage.removeItem(KEY);
});

window.addEventListener("storage", (event) => {
  if (event.key === KEY) session.set(load());
});

export function currentToken(): string | null {
  const s = session.get();
  return s && !s.expired ? s.token : null;
}

export function currentUsername(): string | null {
  return session.get()?.user.username ?? null;
}

configureClient({
  token: currentToken,
  authExpired: () => {
    const s = session.get();
    if (s && !s.expired) session.set({ ...s, expired: true });
  },
});
configureLive({ token: currentToken });
session.subscribe(() => refreshLive()); // e.g. a campaign joined again in another tab: its new token

export type AuthOutcome = { ok: true } | { ok: false; error: ErrorResult };

function accept(result: AuthResult): AuthOutcome {
  if (result.__typename === "AuthPayload") {
    closeLive();
    session.set({ token: result.token, user: result.user, expired: false });
    return { ok: true };
  }
  return { ok: false, error: result };
}

export async function signUp(username: string, password: string): Promise<AuthOutcome> {
  const data = await request(SIGN_UP, { input: { username, password } }, { token: null });
  return accept(data.signUp);
}

export async function logIn(username: string, password: string): Promise<AuthOutcome> {
  const data = await request(LOG_IN, { input: { username, password } }, { token: null });
  return accept(data.logIn);
}

export function logOut(): void {
  closeLive();
  session.set(null);
}
