import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  Message,
  Pagination,
  UpdatePassword,
  UserCreate,
  UserIdParam,
  UserPublic,
  UserRegister,
  UsersPublic,
  UserUpdate,
  UserUpdateMe,
} from '../../contract';
import { bool } from '../../db/database';
import { deleteUser, getUserByEmail, getUserById, insertUser, listUsers, toUserPublic, updateUser, type UserPatch } from '../../db/repositories/users';
import { badRequest, conflict, forbidden, notFound } from '../services/errors';
import { hashPassword, verifyPassword } from '../services/security';
import type { RouteDeps } from './deps';

const EMAIL_TAKEN = 'The user with this email already exists in the system';

export default async function usersRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['users'];

  async function assertEmailFree(email: string | undefined, selfId = 0) {
    if (email === undefined) return;
    const other = await getUserByEmail(db, email);
    if (other && other.id !== selfId) throw conflict(EMAIL_TAKEN);
  }

  r.get('/users/', { config: { auth: 'superuser' }, schema: { tags, querystring: Pagination, response: { 200: UsersPublic } } }, async (req) => {
    const { rows, count } = await listUsers(db, req.query.skip, req.query.limit);
    return { data: rows.map(toUserPublic), count };
  });

  async function createUser(u: { email: string; password: string; full_name?: string | null; is_active: boolean; is_superuser: boolean }) {
    await assertEmailFree(u.email);
    const { password, ...rest } = u;
    return toUserPublic(await insertUser(db, { ...rest, full_name: u.full_name || null, hashed_password: await hashPassword(password) }));
  }

  r.post('/users/', { config: { auth: 'superuser' }, schema: { tags, body: UserCreate, response: { 201: UserPublic } } }, async (req, reply) => {
    const { confirm_password: _, ...user } = req.body;
    return reply.status(201).send(await createUser(user));
  });

  r.get('/users/me', { config: { auth: 'user' }, schema: { tags, response: { 200: UserPublic } } }, async (req) => toUserPublic(req.staff!));

  r.patch('/users/me', { config: { auth: 'user' }, schema: { tags, body: UserUpdateMe, response: { 200: UserPublic } } }, async (req) => {
    const me = req.staff!;
    await assertEmailFree(req.body.email, me.id);
    const patch: UserPatch = { email: req.body.email, full_name: req.body.full_name };
    if (req.body.telegram_id !== undefined) {
      // Unlinking forgets the handle too; a new id keeps none until the bot links it.
      patch.telegram_id = req.body.telegram_id;
      if (req.body.telegram_id !== me.telegram_id) patch.telegram_login = null;
    }
    const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    return toUserPublic((await updateUser(db, me.id, clean))!);
  });

  r.patch('/users/me/password', { config: { auth: 'user' }, schema: { tags, body: UpdatePassword, response: { 200: Message } } }, async (req) => {
    const me = req.staff!;
    if (!(await verifyPassword(req.body.current_password, me.hashed_password))) throw badRequest('Incorrect password');
    if (req.body.current_password === req.body.new_password) throw badRequest('New password cannot be the same as the current one');
    await updateUser(db, me.id, { hashed_password: await hashPassword(req.body.new_password) });
    return { message: 'Password updated successfully' };
  });

  r.post('/users/open', { config: { auth: 'public' }, schema: { tags, body: UserRegister, response: { 201: UserPublic } } }, async (req, reply) => {
    if (!config.usersOpenRegistration) throw forbidden('Open user registration is forbidden on this server');
    return reply.status(201).send(await createUser({ ...req.body, is_active: true, is_superuser: false }));
  });

  r.get('/users/:user_id', { config: { auth: 'user' }, schema: { tags, params: UserIdParam, response: { 200: UserPublic } } }, async (req) => {
    const me = req.staff!;
    if (req.params.user_id !== me.id && !bool(me.is_superuser)) throw forbidden("The user doesn't have enough privileges");
    const user = await getUserById(db, req.params.user_id);
    if (!user) throw notFound('The user with this id does not exist in the system');
    return toUserPublic(user);
  });

  r.patch(
    '/users/:user_id',
    { config: { auth: 'superuser' }, schema: { tags, params: UserIdParam, body: UserUpdate, response: { 200: UserPublic } } },
    async (req) => {
      const id = req.params.user_id;
      if (!(await getUserById(db, id))) throw notFound('The user with this id does not exist in the system');
      await assertEmailFree(req.body.email, id);
      const { password, confirm_password: _, ...rest } = req.body;
      const patch: UserPatch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      if (password) patch.hashed_password = await hashPassword(password);
      return toUserPublic((await updateUser(db, id, patch))!);
    },
  );

  r.delete('/users/:user_id', { config: { auth: 'superuser' }, schema: { tags, params: UserIdParam, response: { 200: Message } } }, async (req) => {
    if (req.params.user_id === req.staff!.id) throw forbidden('Super users are not allowed to delete themselves');
    if (!(await getUserById(db, req.params.user_id))) throw notFound('The user with this id does not exist in the system');
    await deleteUser(db, req.params.user_id);
    return { message: 'User deleted successfully' };
  });
}
