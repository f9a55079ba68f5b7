import { z } from './zod';
import { listOf, requiredText } from './common';

const latitude = z
  .number({ error: 'Широта: введите число' })
  .min(-90, 'Широта: от -90 до 90')
  .max(90, 'Широта: от -90 до 90')
  .nullable();
const longitude = z
  .number({ error: 'Долгота: введите число' })
  .min(-180, 'Долгота: от -180 до 180')
  .max(180, 'Долгота: от -180 до 180')
  .nullable();

export const AddressCreate = z.object({
  title: requiredText('Укажите адрес', 255),
  map_link: requiredText('Укажите ссылку', 2000),
  description: z.string().max(5000).nullable().optional(),
  /** The pin sent before a session; filled from the map link when it carries coordinates. */
  latitude: latitude.optional(),
  longitude: longitude.optional(),
});
export type AddressCreate = z.infer<typeof AddressCreate>;

export const AddressUpdate = z.object({
  title: requiredText('Укажите адрес', 255).optional(),
  map_link: requiredText('Укажите ссылку', 2000).optional(),
  description: z.string().max(5000).nullable().optional(),
  /** The pin sent before a session; filled from the map link when it carries coordinates. */
  latitude: latitude.optional(),
  longitude: longitude.optional(),
});
export type AddressUpdate = z.infer<typeof AddressUpdate>;

export const AddressPublic = z.object({
  id: z.number().int(),
  title: z.string(),
  map_link: z.string(),
  description: z.string().nullable(),
  latitude: z.number().nullable().optional(),
  longitude: z.number().nullable().optional(),
});
export type AddressPublic = z.infer<typeof AddressPublic>;

export const AddressesPublic = listOf(AddressPublic);
export type AddressesPublic = z.infer<typeof AddressesPublic>;
