/**
 * The model contract of the chosen task, where researchers upload (issue #29): the tensors a model declares, the
 * labels in order, the required `labels` parameter, a config.pbtxt to start from, and an example archive that passes
 * every upload check as it is (a trivial baseline to replace).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { MODEL_CONTRACT, type ContractTensor, type ModelContract } from "./documents";
import { MODELS_TEXT as T } from "./text";

function tensorText(t: ContractTensor): string {
  return T.tensor(t.name, t.dataType, `[${t.dims.join(", ")}]`);
}

function download(contract: ModelContract) {
  const bytes = Uint8Array.from(atob(contract.exampleArchiveBase64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/zip" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = contract.exampleArchiveName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ContractPanel({ taskCode }: { taskCode: string }) {
  const [contract, setContract] = useState<ModelContract | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!taskCode) return;
    let current = true;
    setContract(null);
    setError("");
    request(MODEL_CONTRACT, { taskCode })
      .then(({ modelContract }) => current && setContract(modelContract))
      .catch((problem) => current && setError(describeError(problem)));
    return () => {
      current = false;
    };
  }, [taskCode]);

  if (error) return <p class="error" role="alert">{T.contractFailed(error)}</p>;
  if (!contract) return <p class="hint" role="status">{T.loading}</p>;
  return (
    <details class="contract" data-testid="model-contract">
      <summary>{T.contractTitle}</summary>
      <p class="hint">{T.contractLead}</p>
      <h3>{T.contractInputs}</h3>
      <ul>{contract.inputs.map((t) => <li key={t.name}><code>{tensorText(t)}</code> — {t.meaning}</li>)}</ul>
      <h3>{T.contractOutputs}</h3>
      <ul>{contract.outputs.map((t) => <li key={t.name}><code>{tensorText(t)}</code> — {t.meaning}</li>)}</ul>
      {contract.labels.length > 0 && (
        <>
          <h3>{T.contractLabels}</h3>
          <ol class="contract-labels">{contract.labels.map((label) => <li key={label}><code>{label}</code></li>)}</ol>
        </>
      )}
      <h3>{T.contractParameters}</h3>
      <p>{contract.kind === "classification" ? T.labelsRequired : T.labelsQa}</p>
      <pre class="contract-config" tabIndex={0} aria-label={T.contractConfig}><code>{contract.configPbtxt}</code></pre>
      <button type="button" onClick={() => download(contract)}>{T.downloadExample(contract.exampleArchiveName)}</button>
      <p class="hint">{T.exampleHint}</p>
    </details>
  );
}
