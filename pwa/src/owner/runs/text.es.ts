import { formatNumber } from "../../i18n/format";
import type { Translation } from "../../i18n/catalogs";
import type { RUNS_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const runs: Translation<typeof RUNS_EN> = {
  title: (n) => `Ejecutar el generador en la ronda ${f(n)}`,
  lead: "El generador de la tarea escribe ejemplos contra el modelo objetivo de esta ronda, sin supervisión. Entran en validación como los de las personas, marcados como hechos por máquina.",
  count: "Ejemplos que escribir",
  countHint: (max) => `Un número entero de 1 a ${f(max)}. Cada uno cuenta en tus ejemplos por minuto.`,
  countInvalid: (max) => `Escribe un número entero de 1 a ${f(max)}.`,
  start: "Iniciar la ejecución",
  starting: "Iniciando…",
  started: "La ejecución ha empezado. Sus cifras se actualizan cada pocos segundos.",
  cancel: "Cancelar la ejecución",
  cancelled: "La ejecución se canceló. Lo que escribió se conserva.",
  wait: (left) => `Vuelve a intentarlo en ${f(left)} s.`,
  runsTitle: (n) => `Ejecuciones en la ronda ${f(n)}`,
  none: "Todavía no hay ninguna ejecución.",
  loading: "Cargando las ejecuciones…",
  status: { QUEUED: "En cola", RUNNING: "En curso", DONE: "Terminada", FAILED: "Fallida", CANCELLED: "Cancelada" },
  progress: (done, count) => `${f(done)} de ${f(count)} escritos`,
  figures: "Cifras",
  colProduced: "Escritos",
  colFooled: "Engañaron al modelo",
  colValidated: "Validados",
  colValidatedFooled: "Validados y engañosos",
  colAwaiting: "Esperando validación",
  colRefused: "Candidatos rechazados",
  byWhom: (who, generator) => `Iniciada por ${who}; generador ${generator}`,
  reason: (text) => `Motivo: ${text}`,
};
