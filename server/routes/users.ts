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
import { listUsers, toUserPublic } from '../../db/repositories/users';
import {
  addUser,
  changeOwnPassword,
  editUser,
  registerOpen,
  removeUser,
  updateOwnProfile,
  viewUser,
} from '../../core/staff/users';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';

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
      return reply.status(201).send(await addUser(database, actorOf(req), user));
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
      return updateOwnProfile(database, actorOf(req), req.body);
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
      return reply.status(201).send(await registerOpen(database, config.usersOpenRegistration, req.body));
    },
  );

  r.get(
    '/users/:user_id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'A user by id', errors: [403], params: UserIdParam, response: { 200: UserPublic } },
    },
    async (req) => {
      return viewUser(database, actorOf(req), req.params.user_id);
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
      const { confirm_password: _, ...patch } = req.body;
      return editUser(database, actorOf(req), req.params.user_id, patch);
    },
  );

  r.delete(
    '/users/:user_id',
    {
      config: { auth: 'superuser' },
      schema: { tags, summary: 'Delete a user', params: UserIdParam, response: { 200: Message } },
    },
    async (req) => {
      await removeUser(database, actorOf(req), req.params.user_id);
      return { message: 'User deleted successfully' };
    },
  );
}
