import { z } from './zod';

export const Notifications = z.object({
  userApply: z.boolean(),
  userCancel: z.boolean(),
  scheduled1d: z.boolean(),
});
export type Notifications = z.infer<typeof Notifications>;

export const Settings = z.object({ notifications: Notifications });
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = { notifications: { userApply: true, userCancel: true, scheduled1d: true } };
