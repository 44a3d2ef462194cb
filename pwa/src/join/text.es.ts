import type { Translation } from "../i18n/catalogs";
import { pluralFor } from "../i18n/format";
import type { JOIN_EN } from "./text";

const p = pluralFor("es");

export const join: Translation<typeof JOIN_EN> = {
  joining: "Abriendo la campaña…",
  retry: "Reintentar",
  offlineJoin: "No tienes conexión. Conéctate a internet para empezar esta campaña.",
  badLink: "Este enlace no funciona.",
  nextTitle: "Qué puedes hacer",
  backToPlatform: (platform) => `Vuelve a ${platform} y abre el estudio de nuevo desde allí: su enlace lleva los datos que esta página necesita.`,
  backLink: (platform) => `Ir a ${platform}`,
  backNoPlatform: "Vuelve a donde encontraste este enlace y ábrelo de nuevo desde allí.",
  contactResearcher: (platform) =>
    platform
      ? `Si sigue sin funcionar, escribe al investigador por los mensajes de ${platform} y cuéntale lo que dice esta página.`
      : "Si sigue sin funcionar, escribe al investigador que te dio este enlace y cuéntale lo que dice esta página.",
  earnedTotal: (earned, pending) => `Has ganado ${earned} en esta campaña (${pending} aún sin pagar).`,
  payHint: "Las bonificaciones se suman cuando se validan tus ejemplos; el pago base cuando terminas.",
  previewTitle: "Vista previa",
  previewLead: "Así es la tarea.",
  acceptHit: "Acepta el HIT para empezar.",
  previewNote: "No se registra nada hasta que aceptes el HIT.",
  consentTitle: "Consentimiento",
  consentLead: "Lee esto antes de empezar.",
  consentAccept: "Acepto, continuar",
  consentDecline: "Si no estás de acuerdo, cierra esta página y devuelve el estudio en tu plataforma.",
  quizTitle: "Un breve cuestionario",
  quizLead: (passMark, total) =>
    passMark === null
      ? p(total, { one: "Responde a la pregunta.", other: "Responde a las # preguntas." })
      : `Responde bien al menos ${passMark} de ${p(total, { one: "# pregunta", other: "# preguntas" })} para empezar.`,
  attemptsLeft: (n) => p(n, { one: "Te queda # intento.", other: "Te quedan # intentos." }),
  question: (i, total) => `Pregunta ${i} de ${total}`,
  answerLabel: "Tu respuesta",
  chooseOne: "Elige una respuesta.",
  submitQuiz: "Enviar mis respuestas",
  quizFailed: (score, total, left) =>
    `Acertaste ${score} de ${total}. ${p(left, { one: "Te queda # intento", other: "Te quedan # intentos" })}: vuelve a intentarlo.`,
  quizPassed: (score, total) => `Acertaste ${score} de ${total}: ya puedes empezar.`,
  quotaTitle: "Tu trabajo",
  examplesToday: (n) => p(n, { one: "Queda # ejemplo hoy", other: "Quedan # ejemplos hoy" }),
  examplesTotal: (n) => p(n, { one: "Queda # ejemplo en esta campaña", other: "Quedan # ejemplos en esta campaña" }),
  validationsToday: (n) => p(n, { one: "Queda # validación hoy", other: "Quedan # validaciones hoy" }),
  validationsTotal: (n) => p(n, { one: "Queda # validación en esta campaña", other: "Quedan # validaciones en esta campaña" }),
  noLimit: "Sin límite de ejemplos.",
  earned: (earned, pending) => `Ganado hasta ahora: ${earned} (${pending} aún sin pagar).`,
  instructions: "Instrucciones",
  finish: "Terminar",
  finishHint: "Pulsa Terminar cuando acabes: recibirás tu código de finalización.",
  finishing: "Terminando…",
  offlineFinish: "Conéctate a internet para terminar: primero se envían tus ejemplos pendientes.",
  completionTitle: "¡Gracias!",
  screenedTitle: "Gracias por tu tiempo",
  completionLead: "Tu código de finalización:",
  screenedLead: "El cuestionario no salió lo bastante bien para continuar, así que el estudio termina aquí. Tu código:",
  quotaReached: "Has llegado al número de ejemplos de esta campaña.",
  goBackProlific: "Volver a Prolific",
  goBack: "Volver a tu plataforma",
  submitMturk: "Enviar el HIT",
  redirecting: "Te llevamos de vuelta…",
  copyCode: "Copia este código en tu plataforma si te lo pide.",
  copy: "Copiar el código",
  copied: "Copiado.",
};
