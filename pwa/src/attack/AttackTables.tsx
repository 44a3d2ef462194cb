/**
 * One generative round's attack success as two small tables: per target model, and per attack category (only when
 * the round has categorized conversations). Each table scrolls sideways on a narrow screen (a focusable region).
 */
import type { TaskConfig } from "../api/types";
import { localizeTask } from "../i18n/taskText";
import { humanize } from "../tasks/config";
import { attackTables, type AttackSuccessLine, type AttackSuccessRow } from "./asr";
import { ATTACK_TEXT as T } from "./text";
import "./attack.css";

export interface AttackTablesProps {
  rows: AttackSuccessRow[];
  config: TaskConfig;
  /** Unique per page: the captions' ids start with it. */
  idBase: string;
  /** A short note when the round has no conversation yet (false: show nothing). */
  emptyNote?: boolean;
}

export function AttackTables({ rows, config, idBase, emptyNote = true }: AttackTablesProps) {
  const local = localizeTask({ name: "", config });
  const { targets, categories } = attackTables(rows, (key) => local.label(key, humanize(key)));
  if (!targets.length && !categories.length) return emptyNote ? <p class="hint" data-testid="asr-none">{T.none}</p> : null;
  return (
    <div class="attack-tables">
      <Table id={`${idBase}-targets`} caption={T.targetsCaption} keyTitle={T.colTarget} lines={targets} testId="asr-targets" />
      {categories.length > 0 && (
        <Table id={`${idBase}-categories`} caption={T.categoriesCaption} keyTitle={T.colCategory} lines={categories} testId="asr-categories" />
      )}
    </div>
  );
}

function Table({ id, caption, keyTitle, lines, testId }: {
  id: string;
  caption: string;
  keyTitle: string;
  lines: AttackSuccessLine[];
  testId: string;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
      <table class="attack-table" data-testid={testId}>
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{keyTitle}</th>
            <th scope="col" class="num">{T.colConversations}</th>
            <th scope="col" class="num">{T.colFailed}</th>
            <th scope="col" class="num">{T.colAsr}</th>
            <th scope="col" class="num">{T.colVasr}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key} data-key={line.key}>
              <th scope="row"><bdi>{line.name}</bdi></th>
              <td class="num">{line.collected}</td>
              <td class="num">{line.fooled}</td>
              <td class="num" data-testid="asr">{line.asr}</td>
              <td class="num" data-testid="vasr">{line.validatedAsr}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
