import type { Translation } from "../i18n/catalogs";
import type { CLAIM_EN } from "./claims";
import type { VOTE_EN } from "./validations";

export const claims: Translation<typeof CLAIM_EN> = {
  question: "هل أخطأ النموذج؟",
  hint: "قارن إجابة النموذج بما قصدته. سيراجع أشخاص آخرون إجابتك.",
  yes: "نعم، أخطأ",
  no: "لا، أصاب",
  sending: "جارٍ إرسال إجابتك…",
  savedOffline: "حُفظت إجابتك على هذا الجهاز وستُرسل عندما تتصل.",
  refused: "رُفضت إجابتك:",
  refusedBecause: (message) => `رُفضت إجابتك: ${message}`.trimEnd(),
  sendAgain: "أرسل مجددًا",
  outbox: (modelWasWrong) => `إجابتك «${modelWasWrong ? "أخطأ النموذج" : "أصاب النموذج"}» على:`,
  validateWrong: "يقول الكاتب إن النموذج أخطأ هنا. هل أخطأ النموذج فعلًا؟",
  validateRight: "يقول الكاتب إن النموذج أصاب هنا. هل أصاب النموذج فعلًا؟",
  validateLead: "يقول كل كاتب إن كان النموذج قد أخطأ في مثاله؛ تحقّق من ذلك. صوّت بالأزرار أو بالمفاتيح 1 و2 و3.",
  voteYes: "نعم",
  voteNo: "لا",
};

export const votes: Translation<typeof VOTE_EN> = { CORRECT: "صحيح", INCORRECT: "غير صحيح", FLAGGED: "مُبلَّغ عنه" };
