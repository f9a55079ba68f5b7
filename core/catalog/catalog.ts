import type { AddressCreate, AddressUpdate, WorkshopCreate, WorkshopUpdate } from '../../contract';
import { withCoordinates } from '../../contract/map-coordinates';
import type { Database, Executor } from '../../db/database';
import {
  countSchedulesOfAddress,
  deleteAddress,
  getAddress,
  insertAddress,
  updateAddress,
} from '../../db/repositories/addresses';
import {
  countSchedulesOfWorkshop,
  deleteWorkshop,
  getWorkshop,
  insertWorkshop,
  updateWorkshop,
} from '../../db/repositories/workshops';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, NotFound, type FixedRefusalCode, type RefusalRef } from '../kernel/errors';
import { createAudited, deleteAudited, updateAudited } from '../notify/audited-change';

/*
 * The studio's catalogue: workshops and addresses, edited by staff. What a session uses cannot be
 * deleted (the sessions' history would lose what they were): the refusal says how many use it.
 */

export const CATALOG_MSG = {
  workshopNotFound: 'catalogWorkshopNotFound',
  addressNotFound: 'catalogAddressNotFound',
  workshopInUse: (count: number): RefusalRef => ({ code: 'workshopInUse', args: { count } }),
  addressInUse: (count: number): RefusalRef => ({ code: 'addressInUse', args: { count } }),
} as const;

/** One catalogue resource: its rows, how many sessions use one, and its texts. */
interface Kind<C, U, R> {
  entity: 'workshop' | 'address';
  get: (db: Executor, id: number) => Promise<R | undefined>;
  insert: (db: Executor, v: C) => Promise<R>;
  update: (db: Executor, id: number, v: U) => Promise<R | undefined>;
  remove: (db: Executor, id: number) => Promise<unknown>;
  usedBy: (db: Executor, id: number) => Promise<number>;
  notFound: FixedRefusalCode;
  inUse: (n: number) => RefusalRef;
}

function commands<C, U, R extends { id: number }>(k: Kind<C, U, R>) {
  return {
    create: (database: Database, actor: Actor, input: C): Promise<R> => {
      assertCan(actor, 'catalog.manage');
      return createAudited(database, k.entity, actor, (trx) => k.insert(trx, input));
    },
    update: async (database: Database, actor: Actor, id: number, input: U): Promise<R> => {
      assertCan(actor, 'catalog.manage');
      const row = await updateAudited(
        database,
        k.entity,
        id,
        actor,
        (trx) => k.get(trx, id),
        (trx) => k.update(trx, id, input),
      );
      if (!row) throw new NotFound(k.notFound);
      return row;
    },
    remove: async (database: Database, actor: Actor, id: number): Promise<void> => {
      assertCan(actor, 'catalog.manage');
      const deleted = await deleteAudited(
        database,
        k.entity,
        id,
        actor,
        (trx) => k.get(trx, id),
        async (trx) => {
          const used = await k.usedBy(trx, id);
          if (used > 0) throw new Conflict(k.inUse(used));
          await k.remove(trx, id);
        },
      );
      if (!deleted) throw new NotFound(k.notFound);
    },
  };
}

export const workshops = commands({
  entity: 'workshop',
  get: getWorkshop,
  insert: (db, v: WorkshopCreate) => insertWorkshop(db, v),
  update: (db, id, v: WorkshopUpdate) => updateWorkshop(db, id, v),
  remove: deleteWorkshop,
  usedBy: countSchedulesOfWorkshop,
  notFound: CATALOG_MSG.workshopNotFound,
  inUse: CATALOG_MSG.workshopInUse,
});

/** Coordinates are read from the map link when the form leaves them out. */
export const addresses = commands({
  entity: 'address',
  get: getAddress,
  insert: (db, v: AddressCreate) => insertAddress(db, withCoordinates(v)),
  update: (db, id, v: AddressUpdate) => updateAddress(db, id, withCoordinates(v)),
  remove: deleteAddress,
  usedBy: countSchedulesOfAddress,
  notFound: CATALOG_MSG.addressNotFound,
  inUse: CATALOG_MSG.addressInUse,
});
