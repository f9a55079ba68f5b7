import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { RESET_TOKEN_HOURS } from '../core/staff/users';

export interface Email {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/** SMTP through nodemailer; without SMTP_HOST the email is written to the log instead. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const { smtp } = config;
  if (!smtp.host) {
    return {
      async send(email) {
        log.info(
          { to: email.to, subject: email.subject, text: email.text },
          'SMTP_HOST is not set: email written to the log',
        );
      },
    };
  }
  // nodemailer is loaded by the first email, not at start-up.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(email) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port ?? (smtp.tls ? 465 : 587),
          secure: smtp.tls,
          auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
        }),
      );
      await (await transport).sendMail({ from: smtp.from, ...email });
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function resetPasswordEmail(config: Config, to: string, token: string): Email {
  const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const name = escapeHtml(config.businessName);
  return {
    to,
    subject: `${config.businessName}: password recovery for ${to}`,
    text: `We received a request to recover the password for ${to}.\nReset your password: ${link}\nThe link is valid for ${RESET_TOKEN_HOURS} hours and works once. If you did not ask for it, ignore this email.`,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<h2>${name}</h2>
<p>We received a request to recover the password for <b>${escapeHtml(to)}</b>.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#009688;color:#fff;border-radius:6px;text-decoration:none">Reset password</a></p>
<p>Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="color:#666">The link is valid for ${RESET_TOKEN_HOURS} hours and works once. If you did not ask for it, ignore this email.</p>
</body></html>`,
  };
}
