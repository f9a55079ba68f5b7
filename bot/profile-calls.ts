import { texts, textsFor } from './texts';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../contract/language';
import { webAppsEnabled } from './keyboards/webapp';

/**
 * The Bot API calls that give a studio's bot its commands (Russian for everyone, each other language
 * for users whose Telegram is in it) and, over https, the «Записаться» menu button: made by the bot's
 * own start (one studio) and by the platform when a studio's bot joins.
 */
export function profileCalls(publicUrl: string): { method: 'setMyCommands' | 'setChatMenuButton'; params: object }[] {
  return [
    { method: 'setMyCommands', params: { commands: texts.replies.commands } },
    ...LANGUAGES.filter((l) => l !== DEFAULT_LANGUAGE).map((language) => ({
      method: 'setMyCommands' as const,
      params: { commands: textsFor(language).replies.commands, language_code: language },
    })),
    ...(webAppsEnabled(publicUrl)
      ? [
          {
            method: 'setChatMenuButton' as const,
            params: {
              menu_button: { type: 'web_app', text: texts.replies.menuButton, web_app: { url: `${publicUrl}/apply` } },
            },
          },
        ]
      : []),
  ];
}
