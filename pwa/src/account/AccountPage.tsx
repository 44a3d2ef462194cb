/** The signed-in user's account: the optional email, its verification state, and changing or removing it. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import type { PageProps } from "../routes";
import { MY_ACCOUNT, SET_EMAIL, type AccountEmail } from "./documents";
import { LanguagePicker } from "../i18n/LanguagePicker";
import { ACCOUNT_TEXT as T } from "./text";
import { fieldErrors } from "../api/types";

export function AccountPage(_props: PageProps) {
  const [account, setAccount] = useState<AccountEmail | null>(null);
  const [email, setEmail] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    request(MY_ACCOUNT, {}).then(
      ({ me }) => {
        setAccount(me);
        setEmail(me?.email ?? "");
      },
      (e) => setError(describeError(e)),
    );
  }, []);

  async function save(address: string | null) {
    setBusy(true);
    setNote("");
    setError("");
    try {
      const { setEmail: result } = await request(SET_EMAIL, { email: address });
      if (result.__typename !== "EmailSet") {
        setError(fieldErrors(result)[0]?.message ?? result.message);
        return;
      }
      const stored = result.user.email;
      setAccount((old) => old && { ...old, email: stored, emailVerified: result.user.emailVerified });
      setEmail(stored ?? "");
      setNote(
        stored === null ? T.emailRemoved
          : result.verificationSent ? T.verificationSent(stored)
          : result.user.emailVerified ? T.emailUnchanged : T.emailSavedNoMail,
      );
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  if (!account) {
    return error ? <p role="alert" class="error">{error}</p> : <p role="status">{T.loading}</p>;
  }
  return (
    <section class="card narrow" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.accountTitle}</h1>
      <p>{T.signedInAs(account.username)}</p>
      <h2>{T.emailTitle}</h2>
      <p class="hint">{T.emailLead}</p>
      <p data-testid="email-state">
        {account.email === null ? T.emailNone : account.emailVerified ? `${account.email} · ${T.verified}` : `${account.email} · ${T.unverified}`}
      </p>
      <div role="status" class="alert-slot">{note && <p class="note">{note}</p>}</div>
      <div role="alert" class="alert-slot">{error && <p class="error">{error}</p>}</div>
      <form onSubmit={(e) => { e.preventDefault(); void save(email.trim() || null); }} noValidate>
        <div class="field">
          <label for="account-email">{T.emailLabel}</label>
          <input
            id="account-email"
            type="email"
            autoComplete="email"
            maxLength={254}
            value={email}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" class="primary" disabled={busy}>{busy ? T.wait : T.saveEmail}</button>{" "}
        {account.email !== null && (
          <button type="button" disabled={busy} onClick={() => void save(null)}>{T.removeEmail}</button>
        )}
      </form>
      <LanguagePicker id="account-language" />
    </section>
  );
}
