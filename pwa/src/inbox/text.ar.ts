import type { Translation } from "../i18n/catalogs";
import { pluralFor } from "../i18n/format";
import type { NotificationKind } from "./documents";
import type { INBOX_EN } from "./text";

const p = pluralFor("ar");

const KIND_NAMES: Record<NotificationKind, string> = {
  MODEL_DEPLOYED: "نُشر النموذج",
  MODEL_SCORED: "قُيِّم النموذج",
  MODEL_FAILED: "فشل النموذج",
  MODEL_TAKEN_DOWN: "سُحب النموذج",
  EXAMPLE_VALIDATED: "تم التحقق من المثال",
  EXAMPLE_REJECTED: "رُفض المثال",
  BADGE_EARNED: "حصلت على شارة",
  TASK_APPROVED: "تمت الموافقة على المهمة",
  TASK_REJECTED: "رُفضت المهمة",
};

export const inbox: Translation<typeof INBOX_EN> = {
  title: "الإشعارات",
  bell: (unread) =>
    p(unread, {
      zero: "الإشعارات، لا شيء غير مقروء",
      one: "الإشعارات، إشعار واحد غير مقروء",
      two: "الإشعارات، إشعاران غير مقروءين",
      few: "الإشعارات، # إشعارات غير مقروءة",
      many: "الإشعارات، # إشعارًا غير مقروء",
      other: "الإشعارات، # إشعار غير مقروء",
    }),
  loading: "جارٍ التحميل…",
  empty: "لا شيء هنا بعد. ستُعلَم عندما تُقيَّم نماذجك أو يُتحقق من أمثلتك أو تحصل على شارة.",
  unreadOnly: "غير المقروءة فقط",
  markRead: "تعليم كمقروء",
  markAllRead: "تعليم الكل كمقروء",
  allRead: "كلها مقروءة.",
  unread: "غير مقروء",
  more: "عرض الأقدم",
  open: "فتح",
  kind: (kind) => KIND_NAMES[kind] ?? kind,
  emailTitle: "البريد الإلكتروني",
  emailLead: "أرسل هذه أيضًا إلى عنوان بريدي الموثَّق:",
  emailUnavailable: "هذا الخادم لا يرسل بريدًا إلكترونيًا.",
  save: "حفظ",
  saved: "تم الحفظ.",
  failed: (message) => `تعذّر التحديث: ${message}`,
};
