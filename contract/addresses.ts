import { z } from './zod';
import { listOf, requiredText } from './common';

export const AddressCreate = z.object({
  title: requiredText('Укажите адрес', 255),
  map_link: requiredText('Укажите ссылку', 2000),
  description: z.string().max(5000).nullable().optional(),
});
export type AddressCreate = z.infer<typeof AddressCreate>;

export const AddressUpdate = z.object({
  title: requiredText('Укажите адрес', 255).optional(),
  map_link: requiredText('Укажите ссылку', 2000).optional(),
  description: z.string().max(5000).nullable().optional(),
});
export type AddressUpdate = z.infer<typeof AddressUpdate>;

export const AddressPublic = z.object({
  id: z.number().int(),
  title: z.string(),
  map_link: z.string(),
  description: z.string().nullable(),
});
export type AddressPublic = z.infer<typeof AddressPublic>;

export const AddressesPublic = listOf(AddressPublic);
export type AddressesPublic = z.infer<typeof AddressesPublic>;
