import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailParam, LoginForm, Message, NewPassword, Token, UserPublic } from '../../contract';
import { bool } from '../../db/database';
import { consumeToken, insertToken } from '../../db/repositories/tokens';
import { getUserByEmail, toUserPublic, updateUser } from '../../db/repositories/users';
import { RESET_TOKEN_HOURS, resetPasswordEmail } from '../services/email';
import { badRequest, notFound } from '../services/errors';
import { hashPassword, newToken, sha256, verifyDummy, verifyPassword } from '../services/security';
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
      schema: { tags, consumes: ['application/x-www-form-urlencoded'], body: LoginForm, response: { 200: Token } },
    },
    async (req) => {
      const user = await getUserByEmail(database.db, req.body.username);
      const ok = user ? await verifyPassword(req.body.password, user.hashed_password) : await verifyDummy(req.body.password);
      if (!user || !ok) throw badRequest('Incorrect email or password');
      if (!bool(user.is_active)) throw badRequest('Inactive user');
      return { access_token: app.jwt.sign({ sub: String(user.id) }), token_type: 'bearer' as const };
    },
  );

  r.post('/login/test-token', { config: { auth: 'user' }, schema: { tags, response: { 200: UserPublic } } }, async (req) => toUserPublic(req.staff!));

  /** Creates a reset token for an existing active user: the link of the email. */
  async function resetTokenFor(email: string) {
    const user = await getUserByEmail(database.db, email);
    if (!user || !bool(user.is_active)) return null;
    const { token, hash } = newToken();
    const expires = new Date(Date.now() + RESET_TOKEN_HOURS * 3600_000).toISOString();
    await insertToken(database.db, 'password_resets', { token_hash: hash, user_id: user.id, expires_at: expires });
    return { user, token };
  }

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
      schema: { tags, params: EmailParam, response: { 200: Message } },
    },
    async (req) => {
      // The same answer whether or not the email exists, so it cannot be probed.
      const found = await resetTokenFor(req.params.email);
      if (found) {
        mailer.send(resetPasswordEmail(config, found.user.email, found.token)).catch((err) => req.log.error({ err }, 'password recovery email failed'));
      }
      return { message: 'If that email is registered, a password recovery email has been sent' };
    },
  );

  r.post('/reset-password/', { config: { auth: 'public' }, schema: { tags, body: NewPassword, response: { 200: Message } } }, async (req) => {
    const userId = await consumeToken(database.db, 'password_resets', sha256(req.body.token), new Date().toISOString());
    if (userId === null) throw badRequest('Invalid or expired token');
    await updateUser(database.db, userId, { hashed_password: await hashPassword(req.body.new_password) });
    return { message: 'Password updated successfully' };
  });

  r.post(
    '/password-recovery-html-content/:email',
    { config: { auth: 'superuser' }, schema: { tags, params: EmailParam } },
    async (req, reply) => {
      const found = await resetTokenFor(req.params.email);
      if (!found) throw notFound('The user with this email does not exist in the system.');
      const email = resetPasswordEmail(config, found.user.email, found.token);
      return reply.type('text/html; charset=utf-8').header('subject', encodeURIComponent(email.subject)).send(email.html);
    },
  );
}

