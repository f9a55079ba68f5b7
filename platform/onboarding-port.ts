/**
 * What the platform's own bot (onboarding) needs from the platform: the studio store behind it.
 * Implemented by platform/studios.ts; the onboarding bot knows nothing else of the platform.
 */
export interface OnboardingPort {
  /**
   * Creates a studio owned by this Telegram user, served by the bot with this token (already checked
   * with getMe), sets that bot up (webhook with its own secret, commands, menu button, description)
   * and answers the owner's one-time login link to the studio's admin (its first-run wizard).
   * The same bot again (the owner pressed twice) answers the existing studio with a new link.
   */
  createStudio(input: {
    ownerTelegramId: number;
    ownerName: string;
    bot: { id: number; username: string; firstName: string; token: string };
  }): Promise<{ slug: string; loginUrl: string }>;
  /** A new token of a studio's bot (replaced by its owner or by replaceManagedBotToken): stored and the webhook set again. */
  replaceToken(botId: number, token: string): Promise<boolean>;
  /** A studio's bot that can no longer be used (its token revoked, the bot deleted): its studio stops sending. */
  botLost(botId: number, reason: string): Promise<void>;
  /**
   * The studios this Telegram user owns, for «Мои студии». `botId` (the bot's Telegram user id) lets the
   * owner replace a managed bot's token (/newtoken: replaceManagedBotToken takes the bot's id, which
   * its @username does not give); a studio without it is left out of /newtoken.
   */
  studiosOf(
    ownerTelegramId: number,
  ): Promise<{ slug: string; name: string; botUsername: string; loginUrl: string; botId?: number }[]>;
}
