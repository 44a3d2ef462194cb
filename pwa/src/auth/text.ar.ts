import type { Translation } from "../i18n/catalogs";
import type { AUTH_EN } from "./text";

export const auth: Translation<typeof AUTH_EN> = {
  logIn: "تسجيل الدخول",
  signUp: "إنشاء حساب",
  expired: "انتهت صلاحية جلستك. سجّل الدخول مرة أخرى لمواصلة إرسال أمثلتك.",
  offline: "أنت غير متصل: يتطلب تسجيل الدخول اتصالًا بالإنترنت.",
  username: "اسم المستخدم",
  usernameHint: "من 3 إلى 32 حرفًا أو رقمًا أو «_» أو «.» أو «-».",
  password: "كلمة المرور",
  passwordHint: "8 أحرف على الأقل.",
  wait: "يرجى الانتظار…",
  newHere: "جديد هنا؟ ",
  haveAccount: "لديك حساب بالفعل؟ ",
  aboutLabel: "عن Dynabench",
  aboutLead: "‏Dynabench منصة مفتوحة لاختبار نماذج الذكاء الاصطناعي بمشاركة الناس: تحاول أن تجعل النموذج يعطي إجابة خاطئة، وكل مثال يخطئ فيه يبيّن أين ما زال يحتاج إلى تحسين.",
  aboutAnnotate: "التوسيم: اكتب أمثلة تخدع النموذج، متصلًا أو دون اتصال من هاتفك.",
  aboutValidate: "التحقق: راجع أمثلة الآخرين وقل هل أخطأ النموذج فعلًا.",
  aboutCompare: "مقارنة النماذج: اطّلع على ترتيبها في لوحات الصدارة وامنح الوزن لما يهمك.",
  aboutStart: "أنشئ حسابًا لتبدأ",
  aboutLogIn: "تسجيل الدخول",
};
