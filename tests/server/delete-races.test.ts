import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { createSession, inDays } from '../helpers/factories';

// Deleting a workshop or an address while a session is created on it or moved to it, at the same
// moment: one of the two wins, the other is refused with a 4xx and a detail, never a 500, and no
// session is left pointing at nothing. (Real concurrency on PostgreSQL's connection pool.)

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: staff, payload });

async function newWorkshop() {
  return (await post('/workshops/', { title: 'Гонка', price: 100 })).json().id as number;
}
async function newAddress() {
  return (await post('/address/', { title: 'Гонка', map_link: 'https://maps.example/race' })).json().id as number;
}

const PAIRS = 40;
const ALLOWED = new Set([200, 201, 404, 409]);

async function expectClean(results: { statusCode: number; body: string }[]) {
  for (const r of results) {
    expect(ALLOWED.has(r.statusCode), `${r.statusCode}: ${r.body}`).toBe(true);
    expect(JSON.parse(r.body)).toBeTypeOf('object');
  }
  for (const r of results.filter((x) => x.statusCode >= 400)) expect(JSON.parse(r.body)).toHaveProperty('detail');
  const orphans = await t.database.db
    .selectFrom('schedules')
    .leftJoin('workshops', 'workshops.id', 'schedules.workshop_id')
    .leftJoin('addresses', 'addresses.id', 'schedules.address_id')
    .select('schedules.id')
    .where((eb) => eb.or([eb('workshops.id', 'is', null), eb('addresses.id', 'is', null)]))
    .execute();
  expect(orphans).toEqual([]);
}

describe('deletes racing with uses', () => {
  it('creating a session on a workshop or address being deleted: 409/404 for the loser, never 500', async () => {
    const { address, workshop } = await createSession(t.app, staff);
    const pairs = await Promise.all(
      Array.from({ length: PAIRS }, async (_, i) => {
        const byWorkshop = i % 2 === 0;
        const target = byWorkshop ? await newWorkshop() : await newAddress();
        const create = post('/schedule/', {
          date: inDays(5 + i),
          capacity: 4,
          workshop_id: byWorkshop ? target : workshop.id,
          address_id: byWorkshop ? address.id : target,
        });
        const remove = t.app.inject({
          method: 'DELETE',
          url: `/api/v1/${byWorkshop ? 'workshops' : 'address'}/${target}`,
          headers: staff,
        });
        return Promise.all([create, remove]);
      }),
    );
    await expectClean(pairs.flat());
    // Each pair: exactly one of the two went through.
    for (const [create, remove] of pairs) expect([create.statusCode < 300, remove.statusCode < 300]).toContain(true);
  }, 60_000);

  it('moving a session to a workshop or address being deleted: the same', async () => {
    const { address, workshop } = await createSession(t.app, staff);
    const pairs = await Promise.all(
      Array.from({ length: PAIRS }, async (_, i) => {
        const byWorkshop = i % 2 === 0;
        const schedule = (
          await post('/schedule/', {
            date: inDays(50 + i),
            capacity: 4,
            workshop_id: workshop.id,
            address_id: address.id,
          })
        ).json().id as number;
        const target = byWorkshop ? await newWorkshop() : await newAddress();
        const move = t.app.inject({
          method: 'PUT',
          url: `/api/v1/schedule/${schedule}`,
          headers: staff,
          payload: byWorkshop ? { workshop_id: target } : { address_id: target },
        });
        const remove = t.app.inject({
          method: 'DELETE',
          url: `/api/v1/${byWorkshop ? 'workshops' : 'address'}/${target}`,
          headers: staff,
        });
        return Promise.all([move, remove]);
      }),
    );
    await expectClean(pairs.flat());
  }, 60_000);
});
