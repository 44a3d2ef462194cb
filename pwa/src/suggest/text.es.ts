import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { SUGGEST_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const suggest: Translation<typeof SUGGEST_EN> = {
  title: "¿Necesitas inspiración?",
  lead: "Pide sugerencias, edita una y envíala como tuya. Tu ejemplo registra que tuvo ayuda.",
  inspire: "Inspírame",
  perturb: "Modificar mi borrador",
  perturbHint: "Escribe primero un borrador: se prueban pequeños cambios hasta que el modelo cambie su respuesta.",
  asking: "Pidiendo sugerencias…",
  offline: "Las sugerencias necesitan conexión.",
  none: "Esta vez no hay ninguna sugerencia útil. ¿Otra vez?",
  listTitle: (n) => (n === 1 ? "1 sugerencia" : `${f(n)} sugerencias`),
  use: "Usar esta",
  useLabel: (n) => `Usar esta (sugerencia ${f(n)})`,
  used: "En el editor: edítala, elige tu etiqueta y envíala.",
  meant: (label) => `Pensada como: ${label}`,
  modelSays: (label) => `El modelo dice: ${label}`,
  flipped: "El modelo cambió su respuesta",
  notFlipped: (percent) => `No cambió; su confianza bajó a ${percent}`,
  edits: (what) => `Cambios: ${what}`,
  openingTitle: "¿No sabes cómo empezar?",
  openingAsk: "Sugerir un primer mensaje",
  openingUsed: "En el cuadro de mensaje: edítalo y envíalo.",
  assisted: "Escrito a partir de una sugerencia",
  assistedEdited: "Escrito a partir de una sugerencia, editada",
  ownerTitle: "Con y sin sugerencias",
  roundHeading: (n) => `Ronda ${f(n)}`,
  caption: (n) => `Ronda ${f(n)}: ejemplos escritos con y sin sugerencia`,
  colWho: "Ejemplos",
  colCollected: "Recogidos",
  colRate: "Tasa de engaño",
  colValidated: "Tasa de engaño validada",
  colMedian: "Tiempo mediano hasta un ejemplo que engaña",
  rowUnassisted: "Sin ayuda",
  rowAssisted: "Con ayuda",
  edited: (n) => `${f(n)} editados`,
  seconds: (s) => `${s} s`,
  noValue: "—",
  loading: "Cargando las cifras con y sin sugerencias…",
};
