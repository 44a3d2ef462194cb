import type { Translation } from "../i18n/catalogs";
import type { NETWORK_EN } from "./text";

export const network: Translation<typeof NETWORK_EN> = {
  timedOut: "El servidor no respondió a tiempo.",
  unreachable: "No tienes conexión o no se puede acceder al servidor.",
  unavailable: (status) => `El servidor no está disponible (HTTP ${status}).`,
  uploadCancelled: "Se canceló la subida.",
  uploadTooLong: "La subida tardó demasiado.",
  fileTooLarge: "El archivo es demasiado grande para el servidor.",
  cutOff: (status) => `La respuesta llegó incompleta (HTTP ${status}).`,
  empty: (status) => `Respuesta vacía (HTTP ${status}).`,
};
