import { pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { TRANSCRIPT_EN } from "./text";

const plural = pluralFor("es");

export const transcript: Translation<typeof TRANSCRIPT_EN> = {
  label: "Conversación",
  noMessages: "Esta conversación no tiene mensajes.",
  author: "Autor",
  you: "Tú",
  model: "Modelo",
  systemTitle: "Lo que se le dijo primero al modelo",
  categoriesTitle: "Categorías de ataque",
  emptyReply: "(sin texto)",
  stoppedNote: "El autor detuvo esta respuesta; se conserva el texto escrito hasta entonces.",
  failedNote: "Esta respuesta falló; se conserva el texto escrito hasta entonces.",
  judgeScore: (score, threshold) => `Puntuación del juez ${score} (el modelo falla a partir de ${threshold})`,
  judgeScoreOnly: (score) => `Puntuación del juez ${score}`,
  judgeFailed: "cuenta como fallo",
  judgePassed: "no es un fallo",
  previewLabel: "Último intercambio",
  showAll: (n) =>
    plural(n, { one: "Ver toda la conversación (# mensaje más)", other: "Ver toda la conversación (# mensajes más)" }),
  showWhole: "Ver toda la conversación",
  showLess: "Ver solo el último intercambio",
};
