import { z } from './zod';
import { DEFAULT_PRICE, listOf, requiredText } from './common';

const price = z
  .number()
  .int('Цена должна быть целым числом')
  .min(0, 'Цена не может быть отрицательной')
  .max(10_000_000);

export const WorkshopCreate = z.object({
  title: requiredText('Укажите название', 255),
  description: z.string().max(5000).nullable().optional(),
  price: price.default(DEFAULT_PRICE),
});
export type WorkshopCreate = z.infer<typeof WorkshopCreate>;

export const WorkshopUpdate = z.object({
  title: requiredText('Укажите название', 255).optional(),
  description: z.string().max(5000).nullable().optional(),
  price: price.optional(),
});
export type WorkshopUpdate = z.infer<typeof WorkshopUpdate>;

export const WorkshopPublic = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  price: z.number().int(),
});
export type WorkshopPublic = z.infer<typeof WorkshopPublic>;

export const WorkshopsPublic = listOf(WorkshopPublic);
export type WorkshopsPublic = z.infer<typeof WorkshopsPublic>;
