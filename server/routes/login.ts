import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailParam, LoginForm, Message, NewPassword, Token, UserPublic } from '../../contract';
import { toUserPublic } from '../../db/repositories/users';
import { NotFound } from '../../core/kernel/errors';
import { authenticate, createResetToken, resetPassword } from '../../core/staff/users';
import { resetPasswordEmail } from '../email';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';

const tooMany = (detail: string) => () => ({ statusCode: 429, detail, message: detail });

export default async function loginRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config, mailer } = deps;
  const tags = ['login'];

  r.post(
    '/login/access-token',
    {
      config: {
        auth: 'public',
        rateLimit: {
          max: deps.rateLimits.login,
          timeWindow: '1 minute',
          errorResponseBuilder: tooMany('Слишком много попыток входа. Подождите минуту и попробуйте снова.'),
        },
      },
      schema: {
        tags,
        summary: 'Log in: an access token for staff',
        errors: [400, 429],
        consumes: ['application/x-www-form-urlencoded'],
        body: LoginForm,
        response: { 200: Token },
      },
    },
    async (req) => {
      const user = await authenticate(database, req.body.username, req.body.password);
      return {
        access_token: app.jwt.sign({ sub: String(user.id), ver: user.token_version }),
        token_type: 'bearer' as const,
      };
    },
  );

  r.post(
    '/login/test-token',
    { config: { auth: 'user' }, schema: { tags, summary: 'Check the access token', response: { 200: UserPublic } } },
    async (req) => toUserPublic(requireStaff(req)),
  );

  r.post(
    '/password-recovery/:email',
    {
      config: {
        auth: 'public',
        rateLimit: {
          max: deps.rateLimits.passwordRecovery,
          timeWindow: '15 minutes',
          errorResponseBuilder: tooMany('Слишком много запросов на восстановление пароля. Попробуйте позже.'),
        },
      },
      schema: {
        tags,
        summary: 'Email a password reset link',
        errors: [429],
        params: EmailParam,
        response: { 200: Message },
      },
    },
    async (req) => {
      // The same answer, at the same moment, whether or not the email exists, so it cannot be probed:
      // the look-up, the token and the email happen after the answer.
      const email = req.params.email;
      setImmediate(() => {
        createResetToken(database, email)
          .then((found) => found && mailer.send(resetPasswordEmail(config, found.user.email, found.token)))
          .catch((err: unknown) => req.log.error({ err }, 'password recovery failed'));
      });
      return { message: 'If that email is registered, a password recovery email has been sent' };
    },
  );

  r.post(
    '/reset-password/',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Reset the password', errors: [400], body: NewPassword, response: { 200: Message } },
    },
    async (req) => {
      await resetPassword(database, req.body.token, req.body.new_password);
      return { message: 'Password updated successfully' };
    },
  );

  r.post(
    '/password-recovery-html-content/:email',
    {
      config: { auth: 'superuser' },
      schema: { tags, summary: 'Preview the password reset email (HTML)', params: EmailParam },
    },
    async (req, reply) => {
      const found = await createResetToken(database, req.params.email);
      if (!found) throw new NotFound('The user with this email does not exist in the system.');
      const email = resetPasswordEmail(config, found.user.email, found.token);
      return reply
        .type('text/html; charset=utf-8')
        .header('subject', encodeURIComponent(email.subject))
        .send(email.html);
    },
  );
}
