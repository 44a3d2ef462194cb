import { formatNumber as f, pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { EXAMPLES_EN } from "../examples/text";
import type { OUTBOX_PAGE_EN } from "./text";

const plural = pluralFor("es");

export const outboxPage: Translation<typeof OUTBOX_PAGE_EN> = {
  title: "Bandeja de salida",
  lead: "Los ejemplos que envías y los votos que emites se guardan en este dispositivo hasta que el servidor responde a cada uno. Se envían solos cada vez que estás en línea.",
  sendNow: "Enviar ahora",
  offline: "Sin conexión.",
  lastAttemptFailed: (error) => `El último intento falló: ${error}`,
  waitingTitle: "Pendientes de envío",
  count: (n) => `(${f(n)})`,
  nothingWaits: "No hay nada pendiente.",
  failedTitle: (n) => `No se pudieron enviar (${f(n)})`,
  none: "Ninguno.",
  sendAgain: "Enviar de nuevo",
  discard: "Descartar",
  syncedTitle: (n) => `Enviados recientemente (${f(n)})`,
  noneYet: "Ninguno todavía.",
  sentAt: (task) => `${task} · enviado {when}`,
  writtenAt: (task) => `${task} · escrito {when}`,
  attempts: (n) => plural(n, { one: " · # intento", other: " · # intentos" }),
  modelSaid: " El modelo dijo {label}.",
  otherAccount: (n) =>
    plural(n, {
      one: "# ejemplo de este dispositivo pertenece a otra cuenta y se enviará cuando esa cuenta inicie sesión aquí.",
      other: "# ejemplos de este dispositivo pertenecen a otra cuenta y se enviarán cuando esa cuenta inicie sesión aquí.",
    }),
  switchAccount: "Cambiar de cuenta",
  voteOn: (owner, summary) => `Tu voto {vote}${owner ? " (propietario)" : ""} sobre: ${summary}`,
  lastProblem: (error) => `Último problema: ${error}`,
};

export const examples: Translation<typeof EXAMPLES_EN> = {
  title: "Mis ejemplos",
  loading: "Cargando…",
  savedCopy: (error) => `Se muestran los ejemplos guardados en este dispositivo: ${error}`,
  stillWaiting: (n) =>
    plural(n, { one: "# ejemplo sigue esperando en este dispositivo. ", other: "# ejemplos siguen esperando en este dispositivo. " }),
  couldNotSend: (n) => `${f(n)} no se pudieron enviar. `,
  openOutbox: "Abrir la bandeja de salida",
  noneYet: "Todavía no has enviado ningún ejemplo. {link}.",
  pickTask: "Elige una tarea",
  roundOf: (task, round) => `${task}, ronda ${f(round)} · `,
  youSaid: "Tú dijiste {intended}",
  modelSaid: "; el modelo dijo {model}",
  waitingForModel: (reason) => ` (esperando al modelo: ${reason})`,
  showMore: "Mostrar más",
  retracted: "Retirado",
  flagged: "Reportado",
};
