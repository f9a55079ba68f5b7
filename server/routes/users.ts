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
import {
  deleteUser,
  getUserById,
  listUsers,
  toUserPublic,
  updateUser,
  type UserPatch,
} from '../../db/repositories/users';
import { Forbidden, NotFound } from '../../core/kernel/errors';
import { assertEmailFree, changeOwnPassword, createUser, editUser } from '../../core/staff/users';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { deleteAudited } from '../../core/notify/audited-change';

const NO_USER = 'The user with this id does not exist in the system';

export default async function usersRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['users'];

  r.get(
    '/users/',
    {
      config: { auth: 'superuser' },
      schema: { tags, summary: 'List staff users', querystring: Pagination, response: { 200: UsersPublic } },
    },
    async (req) => {
      const { rows, count } = await listUsers(db, req.query.skip, req.query.limit);
      return { data: rows.map(toUserPublic), count };
    },
  );

  r.post(
    '/users/',
    {
      config: { auth: 'superuser' },
      schema: { tags, summary: 'Create a staff user', errors: [409], body: UserCreate, response: { 201: UserPublic } },
    },
    async (req, reply) => {
      const { confirm_password: _, ...user } = req.body;
      return reply.status(201).send(await createUser(database, user, actorOf(req)));
    },
  );

  r.get(
    '/users/me',
    { config: { auth: 'user' }, schema: { tags, summary: 'The current user', response: { 200: UserPublic } } },
    async (req) => toUserPublic(requireStaff(req)),
  );

  r.patch(
    '/users/me',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Update own profile', errors: [409], body: UserUpdateMe, response: { 200: UserPublic } },
    },
    async (req) => {
      const me = requireStaff(req);
      await assertEmailFree(database, req.body.email, me.id);
      const patch: UserPatch = { email: req.body.email, full_name: req.body.full_name };
      // Unlinking forgets the handle too (linking is the bot's one-time link, never this form).
      if (req.body.telegram_id === null) Object.assign(patch, { telegram_id: null, telegram_login: null });
      const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return toUserPublic((await updateUser(db, me.id, clean)) ?? me);
    },
  );

  r.patch(
    '/users/me/password',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Change own password', errors: [400], body: UpdatePassword, response: { 200: Message } },
    },
    async (req) => {
      const me = requireStaff(req);
      await changeOwnPassword(database, me, req.body.current_password, req.body.new_password);
      return { message: 'Password updated successfully' };
    },
  );

  r.post(
    '/users/open',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Open sign-up', errors: [403, 409], body: UserRegister, response: { 201: UserPublic } },
    },
    async (req, reply) => {
      if (!config.usersOpenRegistration) throw new Forbidden('Open user registration is forbidden on this server');
      return reply.status(201).send(await createUser(database, { ...req.body, is_active: true, is_superuser: false }));
    },
  );

  r.get(
    '/users/:user_id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'A user by id', errors: [403], params: UserIdParam, response: { 200: UserPublic } },
    },
    async (req) => {
      const me = requireStaff(req);
      if (req.params.user_id !== me.id && !bool(me.is_superuser))
        throw new Forbidden("The user doesn't have enough privileges");
      const user = await getUserById(db, req.params.user_id);
      if (!user) throw new NotFound(NO_USER);
      return toUserPublic(user);
    },
  );

  r.patch(
    '/users/:user_id',
    {
      config: { auth: 'superuser' },
      schema: {
        tags,
        summary: 'Update a user',
        errors: [409],
        params: UserIdParam,
        body: UserUpdate,
        response: { 200: UserPublic },
      },
    },
    async (req) => {
      const id = req.params.user_id;
      if (!(await getUserById(db, id))) throw new NotFound(NO_USER);
      const { confirm_password: _, ...patch } = req.body;
      const user = await editUser(database, id, patch, actorOf(req));
      if (!user) throw new NotFound(NO_USER);
      return toUserPublic(user);
    },
  );

  r.delete(
    '/users/:user_id',
    {
      config: { auth: 'superuser' },
      schema: { tags, summary: 'Delete a user', params: UserIdParam, response: { 200: Message } },
    },
    async (req) => {
      if (req.params.user_id === requireStaff(req).id)
        throw new Forbidden('Super users are not allowed to delete themselves');
      const deleted = await deleteAudited(
        database,
        'user',
        req.params.user_id,
        actorOf(req),
        async (trx) => {
          const u = await getUserById(trx, req.params.user_id);
          return u && toUserPublic(u);
        },
        (trx) => deleteUser(trx, req.params.user_id),
      );
      if (!deleted) throw new NotFound(NO_USER);
      return { message: 'User deleted successfully' };
    },
  );
}
