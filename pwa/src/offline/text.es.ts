import type { Translation } from "../i18n/catalogs";
import { formatBytes, type OFFLINE_EN } from "./text";

export const offline: Translation<typeof OFFLINE_EN> = {
  heading: "Veredictos sin conexión",
  intro: "Descarga el modelo de esta ronda para obtener un veredicto provisional mientras estás sin conexión. El veredicto del servidor sigue siendo el definitivo.",
  prepare: "Preparar para usar sin conexión",
  preparing: "Descargando el modelo…",
  ready: "Listo sin conexión",
  remove: "Quitar el modelo sin conexión",
  removed: "Se ha quitado el modelo sin conexión de este dispositivo.",
  unavailable: "El modelo de esta ronda no puede funcionar sin conexión.",
  needsConnection: "Conéctate para descargar el modelo.",
  failed: "No se pudo descargar el modelo. Inténtalo de nuevo cuando la conexión sea mejor.",
  provisionalLabel: "Provisional",
  provisionalTitle: "Veredicto provisional (sin conexión)",
  working: "Consultando al modelo sin conexión…",
  guessFailed: "El modelo sin conexión no pudo dar una estimación.",
  offlineGuess: "la estimación del modelo sin conexión; el veredicto del servidor llega cuando este ejemplo se sincronice",
  outdated: "Hay un modelo más reciente para esta ronda. Descárgalo para mantener al día las estimaciones sin conexión.",
  update: "Descargar el modelo más reciente",
  serverAgreed: "El veredicto del servidor coincide con la estimación sin conexión.",
  progress: (done, total) => `${formatBytes(done)} de ${formatBytes(total)}`,
  download: (total, modelBytes, runtimeBytes) =>
    `Descarga: ${formatBytes(total)} (modelo ${formatBytes(modelBytes)} + motor sin conexión ${formatBytes(runtimeBytes)})`,
  downloadModel: (modelBytes) => `Descarga: ${formatBytes(modelBytes)} del modelo, más el motor sin conexión`,
  readyStored: (bytes) => `Listo sin conexión. Guardado en este dispositivo: ${formatBytes(bytes)}`,
  wouldSay: (label) => `probablemente el modelo diría «${label}»`,
  serverDiffered: (guess, server) =>
    `El modelo del servidor dice «${server}»; la estimación sin conexión era «${guess}». El veredicto que cuenta es el del servidor.`,
};
