import type { FastifyInstance } from 'fastify';
import { loginApi } from '../../contract/endpoints/login';
import { toUserPublic } from '../../db/repositories/users';
import { NotFound } from '../../core/kernel/errors';
import { authenticate, createResetToken, resetPassword } from '../../core/staff/users';
import { resetPasswordEmail } from '../email';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { route } from '../route';

const tooMany = (detail: string) => () => ({ statusCode: 429, detail, message: detail });

export default async function loginRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { database, config, mailer } = deps;

  route(
    app,
    loginApi.accessToken,
    async (req) => {
      const user = await authenticate(database, req.body.username, req.body.password);
      return {
        access_token: app.jwt.sign({ sub: String(user.id), ver: user.token_version }),
        token_type: 'bearer' as const,
      };
    },
    {
      rateLimit: {
        max: deps.rateLimits.login,
        timeWindow: '1 minute',
        errorResponseBuilder: tooMany('Слишком много попыток входа. Подождите минуту и попробуйте снова.'),
      },
    },
  );

  route(app, loginApi.testToken, async (req) => toUserPublic(requireStaff(req)));

  route(
    app,
    loginApi.passwordRecovery,
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
    {
      rateLimit: {
        max: deps.rateLimits.passwordRecovery,
        timeWindow: '15 minutes',
        errorResponseBuilder: tooMany('Слишком много запросов на восстановление пароля. Попробуйте позже.'),
      },
    },
  );

  route(app, loginApi.resetPassword, async (req) => {
    await resetPassword(database, req.body.token, req.body.new_password);
    return { message: 'Password updated successfully' };
  });

  route(app, loginApi.passwordRecoveryEmail, async (req, reply) => {
    const found = await createResetToken(database, req.params.email);
    if (!found) throw new NotFound('emailUnknown');
    const email = resetPasswordEmail(config, found.user.email, found.token);
    return reply.type('text/html; charset=utf-8').header('subject', encodeURIComponent(email.subject)).send(email.html);
  });
}
