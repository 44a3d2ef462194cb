import type { Translation } from "../i18n/catalogs";
import type { NotificationKind } from "./documents";
import type { INBOX_EN } from "./text";

const KIND_NAMES: Record<NotificationKind, string> = {
  MODEL_DEPLOYED: "Modelo desplegado",
  MODEL_SCORED: "Modelo puntuado",
  MODEL_FAILED: "Fallo del modelo",
  MODEL_TAKEN_DOWN: "Modelo retirado",
  EXAMPLE_VALIDATED: "Ejemplo validado",
  EXAMPLE_REJECTED: "Ejemplo rechazado",
  BADGE_EARNED: "Insignia conseguida",
  TASK_APPROVED: "Tarea aprobada",
  TASK_REJECTED: "Tarea rechazada",
};

export const inbox: Translation<typeof INBOX_EN> = {
  title: "Notificaciones",
  bell: (unread) =>
    unread === 0 ? "Notificaciones, ninguna sin leer" : unread === 1 ? "Notificaciones, 1 sin leer" : `Notificaciones, ${unread} sin leer`,
  loading: "Cargando…",
  empty: "Aquí no hay nada todavía. Te avisaremos cuando se puntúen tus modelos, se validen tus ejemplos o consigas una insignia.",
  unreadOnly: "Solo sin leer",
  markRead: "Marcar como leída",
  markAllRead: "Marcar todas como leídas",
  allRead: "Todas leídas.",
  unread: "Sin leer",
  more: "Ver anteriores",
  open: "Abrir",
  kind: (kind) => KIND_NAMES[kind] ?? kind,
  emailTitle: "Correo electrónico",
  emailLead: "Enviar también estas a mi dirección de correo verificada:",
  emailUnavailable: "Este servidor no envía correo.",
  save: "Guardar",
  saved: "Guardado.",
  failed: (message) => `No se pudo actualizar: ${message}`,
};
