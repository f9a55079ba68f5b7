import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ScheduleListQuery, rangeBounds } from '../../contract';
import { scheduleApi } from '../../contract/endpoints/schedule';
import type { z } from 'zod';
import { nowIso } from '../../db/database';
import { getScheduleDetail, listSchedules } from '../../db/repositories/schedules';
import { createPublicScheduleCache } from '../../core/schedules/public-schedule';
import { MSG } from '../../core/kernel/messages';
import { addSchedule, editSchedule, removeSchedule } from '../../core/schedules/schedules';
import { cancelSession } from '../../core/schedules/cancel-session';
import { scheduleRemoval } from '../../core/views/schedule-removal';
import { scheduleListItem } from '../../core/views/schedule-list';
import { addSeries } from '../../core/schedules/series';
import { assertHostMaySee, isHost, rangeFor } from '../../core/kernel/roles';
import { withRowsAllowed } from '../../core/booking/staff-allowed';
import { NotFound } from '../../core/kernel/errors';
import { REMINDER_MSG, sendReminders } from '../../core/journey/reminders';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';

export default async function scheduleRoutes(
  app: FastifyInstance,
  { database, config: { businessTimezone } }: RouteDeps,
) {
  const db = database.db;

  // A host's lists are cut to its days; an upcoming list counts from the start of today for a host, so
  // a session that started an hour ago is still at the door. Each session as its card shows it.
  const listPage = async (req: FastifyRequest, when: 'upcoming' | 'past', q: z.output<typeof ScheduleListQuery>) => {
    const actor = actorOf(req);
    const range = rangeFor(actor, when, rangeBounds(q, businessTimezone));
    const now = when === 'upcoming' && isHost(actor) ? range.from! : nowIso();
    const page = await listSchedules(db, when, now, { ...range, workshop_id: q.workshop_id }, q);
    return { ...page, data: page.data.map((s) => scheduleListItem(withRowsAllowed(actor, s))) };
  };

  /** A session as the caller reads it: each booking with what they may do with it. */
  async function detail(req: FastifyRequest, id: number) {
    const s = await getScheduleDetail(db, id);
    if (!s) throw new NotFound(MSG.scheduleNotFound);
    return withRowsAllowed(actorOf(req), s);
  }

  route(app, scheduleApi.list, async (req) => listPage(req, 'upcoming', req.query));

  route(app, scheduleApi.past, async (req) => listPage(req, 'past', req.query));

  // Anonymous: the mini-app's step 1. Free seats only, nothing about who booked.
  const publicSchedule = createPublicScheduleCache(database);
  route(app, scheduleApi.public, async (_req, reply) =>
    // Pre-serialized JSON: Fastify sends a string as it is (the schema still documents it).
    reply.type('application/json; charset=utf-8').send((await publicSchedule.json()) as never),
  );

  route(app, scheduleApi.create, async (req, reply) =>
    reply.status(201).send(await detail(req, await addSchedule(database, actorOf(req), req.body))),
  );

  route(app, scheduleApi.series, async (req, reply) => {
    const ids = await addSeries(database, actorOf(req), req.body, businessTimezone);
    const data = await Promise.all(ids.map((id) => detail(req, id)));
    return reply.status(201).send({ data, count: data.length });
  });

  route(app, scheduleApi.get, async (req) => {
    const s = await detail(req, req.params.id);
    assertHostMaySee(actorOf(req), s.date);
    return s;
  });

  route(app, scheduleApi.update, async (req) => {
    await editSchedule(database, actorOf(req), req.params.id, req.body, req.query.scope);
    return detail(req, req.params.id);
  });

  // A reminder to every active participant, through the outbox; may be sent again any number of times.
  route(app, scheduleApi.notify, async (req) => {
    await sendReminders(database, req.params.id);
    return { message: REMINDER_MSG.sent };
  });

  route(app, scheduleApi.cancel, async (req) => {
    await cancelSession(database, actorOf(req), req.params.id, req.body.reason);
    return detail(req, req.params.id);
  });

  // What «Удалить» and «Отменить мастер-класс» will do, asked before staff choose.
  route(app, scheduleApi.removal, async (req) => scheduleRemoval(db, actorOf(req), req.params.id));

  route(app, scheduleApi.delete, async (req) => {
    await removeSchedule(database, actorOf(req), req.params.id, req.query.scope);
    return { message: 'Schedule deleted successfully' };
  });
}
