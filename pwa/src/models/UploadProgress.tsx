/** The bar of an upload in flight: percentage and bytes, a progressbar for assistive technology, and Cancel. */
import { formatBytes, percent, sentAll, type Progress } from "./progress";
import { MODELS_TEXT } from "./text";

export function UploadProgress({ progress, onCancel }: { progress: Progress; onCancel: () => void }) {
  const known = progress.total > 0;
  const value = percent(progress);
  const text = known
    ? MODELS_TEXT.progress(value, formatBytes(progress.sent), formatBytes(progress.total))
    : MODELS_TEXT.progressUnknown(formatBytes(progress.sent));
  return (
    <div class="upload-progress" data-testid="upload-progress">
      <span id="upload-progress-label" class="upload-progress-label">{MODELS_TEXT.progressLabel}</span>
      <div class="upload-progress-track" role="progressbar" aria-labelledby="upload-progress-label" aria-valuemin={0}
        aria-valuemax={100} aria-valuenow={known ? value : undefined} aria-valuetext={text}>
        <div class="upload-progress-fill" style={{ width: `${value}%` }} />
      </div>
      <p class="hint upload-progress-text" data-testid="upload-progress-text">{text}</p>
      {/* Once every byte is sent the server may already store the model: cancelling could no longer promise nothing was kept. */}
      {!sentAll(progress) && <button type="button" onClick={onCancel}>{MODELS_TEXT.cancel}</button>}
    </div>
  );
}
