/**
 * Admins: the LLM endpoints generative rounds can name as their target (models page): the list with each one's
 * limits, prices and whether a key is stored, register / change (EndpointForm.tsx), remove after a confirmation, and
 * every task's usage with its estimated cost (UsageTable.tsx). The list follows each mutation's answer.
 */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { formatNumber } from "../../i18n/format";
import { useAdminLoad } from "../AdminFrame";
import { Confirm } from "../Confirm";
import { errorLine } from "../logic";
import { ADMIN_TEXT } from "../text";
import { LLM_ENDPOINTS, type LlmEndpoint, REGISTER_LLM_ENDPOINT, REMOVE_LLM_ENDPOINT, UPDATE_LLM_ENDPOINT } from "./documents";
import { EndpointForm, type FormAnswer } from "./EndpointForm";
import { changesAnything, type EndpointForm as Values, registerInput, updateInput } from "./form";
import { formatCost, formatTokens } from "./usage";
import { UsageTable } from "./UsageTable";
import { fieldErrors } from "../../api/types";

const T = ADMIN_TEXT.llm;
type Editing = { mode: "new" } | { mode: "edit"; endpoint: LlmEndpoint } | null;

const budget = (n: number) => (n ? formatTokens(n) : T.noLimit);

export function LlmEndpointsSection() {
  const loaded = useAdminLoad(() => request(LLM_ENDPOINTS, {}).then((d) => d.llmEndpoints), []);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; ok: boolean } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const list = loaded.data;

  function announce(text: string, ok: boolean) {
    setStatus({ text, ok });
    requestAnimationFrame(() => statusRef.current?.focus());
  }

  function keep(endpoint: LlmEndpoint) {
    const others = (list ?? []).filter((e) => e.name !== endpoint.name);
    loaded.setData([...others, endpoint].sort((a, b) => a.name.localeCompare(b.name)));
  }

  async function save(values: Values): Promise<FormAnswer> {
    try {
      if (editing?.mode === "edit") {
        const input = updateInput(values, editing.endpoint);
        if (!changesAnything(input)) {
          setEditing(null);
          announce(T.unchanged, true);
          return { ok: true };
        }
        const result = (await request(UPDATE_LLM_ENDPOINT, { input })).updateLlmEndpoint;
        if (result.__typename !== "LlmEndpointUpdated") return { ok: false, fields: fieldErrors(result), text: errorLine(result) };
        keep(result.endpoint);
        setEditing(null);
        announce(T.saved(result.endpoint.name), true);
        return { ok: true };
      }
      const result = (await request(REGISTER_LLM_ENDPOINT, { input: registerInput(values) })).registerLlmEndpoint;
      if (result.__typename !== "LlmEndpointRegistered") return { ok: false, fields: fieldErrors(result), text: errorLine(result) };
      keep(result.endpoint);
      setEditing(null);
      announce(T.registered(result.endpoint.name), true);
      return { ok: true };
    } catch (e) {
      return { ok: false, fields: [], text: describeError(e) };
    }
  }

  async function remove(name: string) {
    setBusy(true);
    try {
      const result = (await request(REMOVE_LLM_ENDPOINT, { name })).removeLlmEndpoint;
      if (result.__typename === "LlmEndpointRemoved") {
        loaded.setData((list ?? []).filter((e) => e.name !== result.name));
        setRemoving(null);
        announce(T.removed(result.name), true);
      } else announce(errorLine(result), false);
    } catch (e) {
      announce(describeError(e), false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="llm-endpoints-title" data-testid="admin-llm-endpoints">
      <h2 id="llm-endpoints-title">{T.title}</h2>
      <p class="hint">{T.lead}</p>
      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite" class="alert-slot" data-testid="llm-status">
        {status && <p class={status.ok ? "notice-ok" : "error"}>{status.text}</p>}
      </div>
      {loaded.error && <p role="alert" class="error">{loaded.error}</p>}
      {list === null ? (!loaded.error && <p role="status">{ADMIN_TEXT.loading}</p>) : list.length === 0 ? <p>{T.none}</p> : (
        <ul class="example-list" aria-labelledby="llm-endpoints-title">
          {list.map((endpoint) => (
            <li key={endpoint.name} class="card" data-endpoint={endpoint.name} data-enabled={endpoint.enabled ? "true" : "false"}>
              <h3 class="card-title">
                <bdi>{endpoint.name}</bdi>{" "}
                <span class={endpoint.enabled ? "badge" : "badge badge-warn"}>{endpoint.enabled ? T.enabledBadge : T.disabledBadge}</span>
              </h3>
              <p class="hint"><bdi>{T.modelAt(endpoint.model, endpoint.baseUrl)}</bdi></p>
              <p class="hint" data-testid="llm-key-state">{endpoint.hasKey ? T.keyStored : T.noKey}</p>
              <p class="hint">
                {T.limitsLine(formatNumber(endpoint.timeoutS), formatTokens(endpoint.maxConcurrency))}
                {" · "}{T.budgetsLine(budget(endpoint.tokensPerUserPerDay), budget(endpoint.tokensPerTaskPerDay))}
              </p>
              <p class="hint">{T.pricesLine(formatCost(endpoint.pricePer1kPromptTokens), formatCost(endpoint.pricePer1kCompletionTokens))}</p>
              {removing === endpoint.name ? (
                <Confirm id="confirm-remove-llm" question={T.confirmRemove(endpoint.name)} busy={busy}
                  onConfirm={() => void remove(endpoint.name)} onCancel={() => setRemoving(null)} />
              ) : editing?.mode === "edit" && editing.endpoint.name === endpoint.name ? (
                <EndpointForm editing={endpoint} onSubmit={save} onCancel={() => setEditing(null)} />
              ) : (
                <div class="actions">
                  <button type="button" onClick={() => { setRemoving(null); setEditing({ mode: "edit", endpoint }); }}>{T.edit}</button>
                  <button type="button" onClick={() => { setEditing(null); setRemoving(endpoint.name); }}>{T.remove}</button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing?.mode === "new" ? (
        <EndpointForm editing={null} onSubmit={save} onCancel={() => setEditing(null)} />
      ) : (
        <div class="actions">
          <button type="button" onClick={() => { setRemoving(null); setEditing({ mode: "new" }); }} data-testid="llm-register">{T.register}</button>
        </div>
      )}
      <UsageTable taskCode={null} />
    </section>
  );
}
