import type { Translation } from "../i18n/catalogs";
import type { NotificationKind } from "./documents";
import type { INBOX_EN } from "./text";

const KIND_NAMES: Record<NotificationKind, string> = {
  MODEL_DEPLOYED: "Modèle déployé",
  MODEL_SCORED: "Modèle noté",
  MODEL_FAILED: "Échec du modèle",
  MODEL_TAKEN_DOWN: "Modèle retiré",
  EXAMPLE_VALIDATED: "Exemple validé",
  EXAMPLE_REJECTED: "Exemple rejeté",
  BADGE_EARNED: "Badge obtenu",
  TASK_APPROVED: "Tâche approuvée",
  TASK_REJECTED: "Tâche refusée",
};

export const inbox: Translation<typeof INBOX_EN> = {
  title: "Notifications",
  bell: (unread) =>
    unread === 0 ? "Notifications, aucune non lue" : unread === 1 ? "Notifications, 1 non lue" : `Notifications, ${unread} non lues`,
  loading: "Chargement…",
  empty: "Rien pour l’instant. Vous serez prévenu quand vos modèles seront notés, vos exemples validés ou un badge obtenu.",
  unreadOnly: "Non lues seulement",
  markRead: "Marquer comme lue",
  markAllRead: "Tout marquer comme lu",
  allRead: "Tout est lu.",
  unread: "Non lue",
  more: "Afficher les plus anciennes",
  open: "Ouvrir",
  kind: (kind) => KIND_NAMES[kind] ?? kind,
  emailTitle: "E-mail",
  emailLead: "M’envoyer aussi celles-ci à mon adresse e-mail vérifiée :",
  emailUnavailable: "Ce serveur n’envoie pas d’e-mails.",
  save: "Enregistrer",
  saved: "Enregistré.",
  failed: (message) => `Mise à jour impossible : ${message}`,
};
