import type { FastifyInstance } from 'fastify';
import { usersApi } from '../../contract/endpoints/users';
import { listUsers, toUserPublic } from '../../db/repositories/users';
import {
  addUser,
  changeOwnPassword,
  editUser,
  registerOpen,
  removeUser,
  updateOwnProfile,
  viewMe,
  viewUser,
} from '../../core/staff/users';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';

export default async function usersRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  const db = database.db;

  route(app, usersApi.list, async (req) => {
    const { rows, count } = await listUsers(db, req.query.skip, req.query.limit);
    return { data: rows.map(toUserPublic), count };
  });

  route(app, usersApi.create, async (req, reply) => {
    const { confirm_password: _, ...user } = req.body;
    return reply.status(201).send(await addUser(database, actorOf(req), user));
  });

  route(app, usersApi.me, async (req) => viewMe(requireStaff(req)));

  route(app, usersApi.updateMe, async (req) => {
    return updateOwnProfile(database, actorOf(req), req.body);
  });

  route(app, usersApi.updatePassword, async (req) => {
    const me = requireStaff(req);
    await changeOwnPassword(database, me, req.body.current_password, req.body.new_password);
    return { message: 'Password updated successfully' };
  });

  route(app, usersApi.open, async (req, reply) => {
    return reply.status(201).send(await registerOpen(database, config.usersOpenRegistration, req.body));
  });

  route(app, usersApi.get, async (req) => {
    return viewUser(database, actorOf(req), req.params.user_id);
  });

  route(app, usersApi.update, async (req) => {
    const { confirm_password: _, ...patch } = req.body;
    return editUser(database, actorOf(req), req.params.user_id, patch);
  });

  route(app, usersApi.delete, async (req) => {
    await removeUser(database, actorOf(req), req.params.user_id);
    return { message: 'User deleted successfully' };
  });
}
