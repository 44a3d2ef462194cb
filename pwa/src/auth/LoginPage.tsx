/** Sign up / log in; for a first-time visitor, first what the site is and what one can do on it. */
import { useRef, useState } from "preact/hooks";
import type { ErrorResult } from "../api/types";
import { describeError } from "../api/client";
import { useObservable } from "../lib/observable";
import { online } from "../lib/network";
import { href, navigate } from "../router";
import { ACCOUNT_TEXT } from "../account/text";
import { AUTH_TEXT as T } from "./text";
import { logIn, session, signUp } from "./session";

export function LoginPage({ query }: { query: URLSearchParams }) {
  const known = session.get();
  const [mode, setMode] = useState<"logIn" | "signUp">(query.get("mode") === "signup" ? "signUp" : "logIn");
  const [username, setUsername] = useState(known?.user.username ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<ErrorResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isOnline = useObservable(online);
  const alertRef = useRef<HTMLDivElement>(null);

  const fieldError = (field: string) => error?.fields?.find((f) => f.field === field)?.message;

  async function onSubmit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFailure(null);
    try {
      const outcome = mode === "logIn" ? await logIn(username.trim(), password) : await signUp(username.trim(), password);
      if (outcome.ok) {
        navigate(query.get("next") ?? "/", { replace: true });
        return;
      }
      setError(outcome.error);
    } catch (e) {
      setFailure(describeError(e));
    } finally {
      setBusy(false);
      alertRef.current?.focus();
    }
  }

  const userError = fieldError("username");
  const passwordError = fieldError("password");
  const title = mode === "logIn" ? T.logIn : T.signUp;

  return (
    <div class="login-page">
      {!known && <About mode={mode} next={query.get("next")} />}
      <section class="card narrow" aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{title}</h1>
        {known?.expired && mode === "logIn" && (
          <p class="note">{T.expired}</p>
        )}
        {!isOnline && <p class="note">{T.offline}</p>}
        <div ref={alertRef} tabIndex={-1} role="alert" class="alert-slot">
          {error && <p class="error">{error.message}</p>}
          {failure && <p class="error">{failure}</p>}
        </div>
        <form onSubmit={onSubmit} noValidate>
          <div class="field">
            <label for="username">{T.username}</label>
            <input
              id="username"
              name="username"
              autoComplete="username"
              dir="auto"
              autoCapitalize="none"
              spellcheck={false}
              required
              minLength={3}
              maxLength={32}
              value={username}
              aria-invalid={userError ? "true" : undefined}
              aria-describedby={userError ? "username-error" : "username-hint"}
              onInput={(e) => setUsername((e.target as HTMLInputElement).value)}
            />
            {userError ? <p id="username-error" class="field-error">{userError}</p>
              : <p id="username-hint" class="hint">{T.usernameHint}</p>}
          </div>
          <div class="field">
            <label for="password">{T.password}</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete={mode === "logIn" ? "current-password" : "new-password"}
              required
              minLength={8}
              value={password}
              aria-invalid={passwordError ? "true" : undefined}
              aria-describedby={passwordError ? "password-error" : "password-hint"}
              onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
            />
            {passwordError ? <p id="password-error" class="field-error">{passwordError}</p>
              : <p id="password-hint" class="hint">{T.passwordHint}</p>}
          </div>
          <button type="submit" class="primary" disabled={busy}>{busy ? T.wait : title}</button>
        </form>
        {mode === "logIn" && <p><a href={href("/forgot-password")}>{ACCOUNT_TEXT.forgotLink}</a></p>}
        <p>
          {mode === "logIn" ? T.newHere : T.haveAccount}
          <button type="button" class="link" onClick={() => { setMode(mode === "logIn" ? "signUp" : "logIn"); setError(null); }}>
            {mode === "logIn" ? T.signUp : T.logIn}
          </button>
        </p>
      </section>
    </div>
  );
}

/** What Dynabench is and what a visitor can do on it, with the way in (sign up, log in). */
function About({ mode, next }: { mode: "logIn" | "signUp"; next: string | null }) {
  const to = (signUp: boolean) => href(`/login?${new URLSearchParams({ ...(signUp ? { mode: "signup" } : {}), ...(next ? { next } : {}) })}`);
  return (
    <section class="about" aria-label={T.aboutLabel} data-testid="about">
      <p class="about-lead">{T.aboutLead}</p>
      <ul class="about-list">
        <li>{T.aboutAnnotate}</li>
        <li>{T.aboutValidate}</li>
        <li>{T.aboutCompare}</li>
      </ul>
      <p class="about-links">
        <a class="button-link primary" href={to(true)} aria-current={mode === "signUp" ? "page" : undefined}>{T.aboutStart}</a>
        <a class="button-link" href={to(false)} aria-current={mode === "logIn" ? "page" : undefined}>{T.aboutLogIn}</a>
      </p>
    </section>
  );
}
