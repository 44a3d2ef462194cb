/** Task owners: the task's webhooks (state, delivery log), a form to add one, and how receivers verify signatures. */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { session } from "../../auth/session";
import { useObservable } from "../../lib/observable";
import { href } from "../../router";
import type { PageProps } from "../../routes";
import { useTaskDetail } from "../../tasks/detail";
import { Status, type Message } from "../status";
import { useOwnerQuery } from "../useOwnerQuery";
import { CREATE_WEBHOOK, WEBHOOKS, type Webhook } from "./documents";
import type { Revealed } from "./SecretPanel";
import { VERIFY_SNIPPET, WEBHOOK_TEXT as T } from "./text";
import { WebhookCard } from "./WebhookCard";
import { type FormAnswer, WebhookForm } from "./WebhookForm";
import type { WebhookFormValues } from "./form";
import { TaskState } from "../TaskState";
import { fieldErrors } from "../../api/types";

export function WebhooksPage({ params }: PageProps) {
  const code = params.code;
  const username = useObservable(session)?.user.username ?? "";
  const detail = useTaskDetail(code, username);
  const hooks = useOwnerQuery(async () => (await request(WEBHOOKS, { taskCode: code })).webhooks, [code]);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const listTitle = useRef<HTMLHeadingElement>(null);
  const list = hooks.data;

  const replace = (hook: Webhook) => hooks.setData((list ?? []).map((h) => (h.id === hook.id ? hook : h)));

  async function create(values: WebhookFormValues): Promise<FormAnswer> {
    try {
      const { createWebhook: result } = await request(CREATE_WEBHOOK, {
        taskCode: code, url: values.url.trim(), events: values.events, description: values.description.trim(),
      });
      if (result.__typename === "WebhookCreated") {
        hooks.setData([...(list ?? []), result.webhook]);
        setRevealed({ webhookId: result.webhook.id, secret: result.secret, rotated: false, previousSecretValidUntil: null });
        return { ok: true, text: T.added };
      }
      return { ok: false, fields: fieldErrors(result), text: result.message };
    } catch (problem) {
      return { ok: false, fields: [], text: describeError(problem) };
    }
  }

  function deleted(id: string) {
    hooks.setData((list ?? []).filter((h) => h.id !== id));
    if (revealed?.webhookId === id) setRevealed(null);
    setMessage({ text: T.removed, ok: true });
    listTitle.current?.focus();
  }

  return (
    <section aria-labelledby="page-title" class="webhooks">
      <p class="crumbs"><a href={href(`/owner/${encodeURIComponent(code)}`)}>{T.backToTask}</a> <span aria-hidden="true">›</span></p>
      <h1 id="page-title" tabIndex={-1}>{T.title(detail.task?.name ?? code)}</h1>
      <TaskState status={detail.task?.status} reviewNote={detail.task?.reviewNote} />
      <p class="lead">{T.lead}</p>
      {hooks.error && <p role="alert" class="error">{hooks.error}</p>}

      <h2 id="webhook-list-title" tabIndex={-1} ref={listTitle}>{T.listTitle}</h2>
      <Status message={message} testId="webhooks-status" />
      {list === undefined ? (
        !hooks.error && <p role="status">{T.loading}</p>
      ) : list.length === 0 ? (
        <p>{T.none}</p>
      ) : (
        <ul class="example-list" aria-labelledby="webhook-list-title" data-testid="webhook-list">
          {list.map((hook) => (
            <WebhookCard
              key={hook.id}
              hook={hook}
              revealed={revealed?.webhookId === hook.id ? revealed : null}
              onSaved={replace}
              onDeleted={deleted}
              onReveal={(r) => { setRevealed(r); setMessage(null); }}
            />
          ))}
        </ul>
      )}

      <WebhookForm onSubmit={create} />

      <section class="card" aria-labelledby="verify-title">
        <h2 id="verify-title">{T.helpTitle}</h2>
        <p>{T.helpHeader}</p>
        <pre class="table-wrap" tabIndex={0}><code>{T.helpHeaderValue}</code></pre>
        <p>{T.helpHow}</p>
        <h3 id="verify-snippet-title">{T.helpSnippetLabel}</h3>
        <pre class="table-wrap" tabIndex={0} role="region" aria-labelledby="verify-snippet-title" data-testid="verify-snippet"><code>{VERIFY_SNIPPET}</code></pre>
      </section>
    </section>
  );
}
