import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IdParam,
  Message,
  ScheduleCreate,
  SchedulePublic,
  SchedulesOpen,
  SchedulesPublic,
  ScheduleUpdate,
  ScheduleListQuery,
  rangeBounds,
} from '../../contract';
import type { z } from 'zod';
import { nowIso } from '../../db/database';
import { getScheduleDetail, listSchedules } from '../../db/repositories/schedules';
import { createPublicScheduleCache } from '../../core/schedules/public-schedule';
import { MSG } from '../../core/kernel/messages';
import { addSchedule, editSchedule, removeSchedule } from '../../core/schedules/schedules';
import { NotFound } from '../../core/kernel/errors';
import { REMINDER_MSG, sendReminders } from '../../core/journey/reminders';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';

export default async function scheduleRoutes(
  app: FastifyInstance,
  { database, config: { businessTimezone } }: RouteDeps,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['schedule'];
  const config = { auth: 'user' as const };

  const listPage = (when: 'upcoming' | 'past', q: z.output<typeof ScheduleListQuery>) =>
    listSchedules(db, when, nowIso(), { ...rangeBounds(q, businessTimezone), workshop_id: q.workshop_id }, q);

  async function detail(id: number) {
    const s = await getScheduleDetail(db, id);
    if (!s) throw new NotFound(MSG.scheduleNotFound);
    return s;
  }

  r.get(
    '/schedule/',
    {
      config,
      schema: {
        tags,
        summary: 'Upcoming sessions with their bookings, soonest first; a page (count = total)',
        querystring: ScheduleListQuery,
        response: { 200: SchedulesPublic },
      },
    },
    async (req) => listPage('upcoming', req.query),
  );

  r.get(
    '/schedule/past',
    {
      config,
      schema: {
        tags,
        summary: 'Past sessions with their bookings, latest first; a page (count = total)',
        querystring: ScheduleListQuery,
        response: { 200: SchedulesPublic },
      },
    },
    async (req) => listPage('past', req.query),
  );

  // Anonymous: the mini-app's step 1. Free seats only, nothing about who booked.
  const publicSchedule = createPublicScheduleCache(database);
  r.get(
    '/schedule/public',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Upcoming sessions, free seats only', response: { 200: SchedulesOpen } },
    },
    async (_req, reply) =>
      // Pre-serialized JSON: Fastify sends a string as it is (the schema still documents it).
      reply.type('application/json; charset=utf-8').send((await publicSchedule.json()) as never),
  );

  r.post(
    '/schedule/',
    {
      config,
      schema: {
        tags,
        summary: 'Create a session',
        errors: [404],
        body: ScheduleCreate,
        response: { 201: SchedulePublic },
      },
    },
    async (req, reply) => reply.status(201).send(await detail(await addSchedule(database, actorOf(req), req.body))),
  );

  r.get(
    '/schedule/:id',
    {
      config,
      schema: { tags, summary: 'A session with its bookings', params: IdParam, response: { 200: SchedulePublic } },
    },
    async (req) => detail(req.params.id),
  );

  r.put(
    '/schedule/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a session',
        params: IdParam,
        body: ScheduleUpdate,
        response: { 200: SchedulePublic },
      },
    },
    async (req) => {
      await editSchedule(database, actorOf(req), req.params.id, req.body);
      return detail(req.params.id);
    },
  );

  // A reminder to every active participant, through the outbox; may be sent again any number of times.
  r.post(
    '/schedule/notify/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remind the participants in Telegram',
        errors: [409],
        params: IdParam,
        response: { 200: Message },
      },
    },
    async (req) => {
      await sendReminders(database, req.params.id);
      return { message: REMINDER_MSG.sent };
    },
  );

  r.delete(
    '/schedule/:id',
    {
      config,
      schema: { tags, summary: 'Delete a session with its bookings', params: IdParam, response: { 200: Message } },
    },
    async (req) => {
      await removeSchedule(database, actorOf(req), req.params.id);
      return { message: 'Schedule deleted successfully' };
    },
  );
}
