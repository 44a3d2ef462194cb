/** The webhook form's limits, mirroring the server's (a module of their own: text tables and form.ts both use them). */
export const URL_MAX = 2000; // server/webhooks/addresses.py URL_MAX
export const DESCRIPTION_MAX = 200; // server/webhooks/service.py DESCRIPTION_MAX
export const GRACE_MAX_HOURS = 168; // a week (server/webhooks/service.py MAX_ROTATION_GRACE_H)
