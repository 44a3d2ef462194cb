/** Pages reached without a session: ask for a reset link, set a new password with it, confirm an email address. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { useObservable } from "../lib/observable";
import { online } from "../lib/network";
import { href } from "../router";
import type { PageProps } from "../routes";
import { REQUEST_RESET, RESET_PASSWORD, VERIFY_EMAIL } from "./documents";
import { linkToken, passwordProblem, PASSWORD_MIN } from "./recovery";
import { ACCOUNT_TEXT as T } from "./text";
import { fieldErrors } from "../api/types";

function Messages({ note, error }: { note: string; error: string }) {
  return (
    <>
      <div role="status" class="alert-slot">{note && <p class="note">{note}</p>}</div>
      <div role="alert" class="alert-slot">{error && <p class="error">{error}</p>}</div>
    </>
  );
}

export function ForgotPasswordPage(_props: PageProps) {
  const [who, setWho] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const isOnline = useObservable(online);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setNote("");
    setError("");
    try {
      const { requestPasswordReset: result } = await request(REQUEST_RESET, { who: who.trim() });
      if (result.__typename === "PasswordResetRequested") setNote(result.message);
      else setError(fieldErrors(result)[0]?.message ?? result.message);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="card narrow" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.forgotTitle}</h1>
      <p class="hint">{T.forgotLead}</p>
      {!isOnline && <p class="note">{T.offline}</p>}
      <Messages note={note} error={error} />
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="reset-who">{T.whoLabel}</label>
          <input dir="auto" id="reset-who" autoComplete="username" autoCapitalize="none" spellcheck={false} required maxLength={254}
            value={who} onInput={(e) => setWho((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit" class="primary" disabled={busy || !who.trim()}>{busy ? T.wait : T.sendLink}</button>
      </form>
      <p><a href={href("/reset-password")}>{T.resetTitle}</a> · <a href={href("/login")}>{T.toLogIn}</a></p>
    </section>
  );
}

export function ResetPasswordPage({ query }: PageProps) {
  const [pasted, setPasted] = useState("");
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const fromLink = linkToken(query);
  async function submit(event: Event) {
    event.preventDefault();
    setNote("");
    const token = linkToken(query, pasted);
    const problem = passwordProblem(password, repeated);
    if (!token) return setError(T.codeMissing);
    if (problem) return setError(T.passwordProblem(problem));
    setBusy(true);
    setError("");
    try {
      const { resetPassword: result } = await request(RESET_PASSWORD, { token, password }, { token: null });
      if (result.__typename === "PasswordResetDone") {
        setNote(T.resetDone(result.username));
        setPassword("");
        setRepeated("");
      } else setError(fieldErrors(result)[0]?.message ?? result.message);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="card narrow" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.resetTitle}</h1>
      <Messages note={note} error={error} />
      <form onSubmit={submit} noValidate>
        {!fromLink && (
          <div class="field">
            <label for="reset-code">{T.codeLabel}</label>
            <input dir="auto" id="reset-code" autoComplete="off" spellcheck={false} value={pasted}
              onInput={(e) => setPasted((e.target as HTMLInputElement).value)} />
          </div>
        )}
        <div class="field">
          <label for="new-password">{T.newPassword}</label>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN}
            aria-describedby="new-password-hint" value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
          <p id="new-password-hint" class="hint">{T.passwordHint}</p>
        </div>
        <div class="field">
          <label for="repeat-password">{T.repeatPassword}</label>
          <input id="repeat-password" type="password" autoComplete="new-password" required value={repeated}
            onInput={(e) => setRepeated((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit" class="primary" disabled={busy}>{busy ? T.wait : T.setPassword}</button>
      </form>
      <p><a href={href("/login")}>{T.toLogIn}</a></p>
    </section>
  );
}

export function VerifyEmailPage({ query }: PageProps) {
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const token = linkToken(query);
  useEffect(() => {
    if (!token) {
      setError(T.codeMissing);
      return;
    }
    request(VERIFY_EMAIL, { token }, { token: null }).then(
      ({ verifyEmail: result }) =>
        result.__typename === "EmailVerified" ? setNote(T.verifiedAs(result.email)) : setError(result.message),
      (e) => setError(describeError(e)),
    );
  }, [token]);
  return (
    <section class="card narrow" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.verifyTitle}</h1>
      {!note && !error && <p role="status">{T.verifying}</p>}
      <Messages note={note} error={error} />
      <p><a href={href("/account")}>{T.toAccount}</a></p>
    </section>
  );
}
