import type { Translation } from "../i18n/catalogs";
import type { CLAIM_EN } from "./claims";
import type { VOTE_EN } from "./validations";

export const claims: Translation<typeof CLAIM_EN> = {
  question: "¿Se equivocó el modelo?",
  hint: "Compara la respuesta del modelo con lo que querías decir. Otras personas revisarán tu respuesta.",
  yes: "Sí, se equivocó",
  no: "No, acertó",
  sending: "Enviando tu respuesta…",
  savedOffline: "Tu respuesta está guardada en este dispositivo y se enviará cuando estés en línea.",
  refused: "Tu respuesta fue rechazada:",
  refusedBecause: (message) => `Tu respuesta fue rechazada: ${message}`.trimEnd(),
  sendAgain: "Enviar de nuevo",
  outbox: (modelWasWrong) => `Tu respuesta «${modelWasWrong ? "el modelo se equivocó" : "el modelo acertó"}» sobre:`,
  validateWrong: "El autor dice que el modelo se equivocó aquí. ¿De verdad se equivocó el modelo?",
  validateRight: "El autor dice que el modelo acertó aquí. ¿De verdad acertó el modelo?",
  validateLead: "Cada autor dice si el modelo se equivocó con su ejemplo; compruébalo. Vota con los botones o con las teclas 1, 2 y 3.",
  voteYes: "Sí",
  voteNo: "No",
};

export const votes: Translation<typeof VOTE_EN> = { CORRECT: "Correcto", INCORRECT: "Incorrecto", FLAGGED: "Reportado" };
