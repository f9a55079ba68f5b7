import { z } from './zod';
import { DEFAULT_PRICE, listOf, requiredText } from './common';

const price = z
  .number()
  .int('Цена должна быть целым числом')
  .min(0, 'Цена не может быть отрицательной')
  .max(10_000_000);

export const DEFAULT_DURATION_MINUTES = 180;
/** How long a session of the workshop lasts (the calendar entry's length). */
const duration = z
  .number({ error: 'Введите число минут' })
  .int('Длительность: целое число минут')
  .min(1, 'Длительность: от 1 до 1440 минут')
  .max(1440, 'Длительность: от 1 до 1440 минут');

/** Fewer people than this at the decision time: the session is cancelled or staff decide; 0: no minimum. */
export const minPeople = z
  .number({ error: 'Введите число участников' })
  .int('Минимум участников: целое число')
  .min(0, 'Минимум участников: от 0 до 1000')
  .max(1000, 'Минимум участников: от 0 до 1000');

/** A translation of the title or description: optional, '' or null is none (customers then see the Russian one). */
const translatedTitle = z.string().trim().max(255).nullable().optional();
const translatedDescription = z.string().max(5000).nullable().optional();
const translations = {
  title_en: translatedTitle,
  title_sr: translatedTitle,
  description_en: translatedDescription,
  description_sr: translatedDescription,
};

export const WorkshopCreate = z.object({
  title: requiredText('Укажите название', 255),
  description: z.string().max(5000).nullable().optional(),
  ...translations,
  price: price.default(DEFAULT_PRICE),
  duration_minutes: duration.default(DEFAULT_DURATION_MINUTES),
  min_people: minPeople.default(0),
});
export type WorkshopCreate = z.infer<typeof WorkshopCreate>;

export const WorkshopUpdate = z.object({
  title: requiredText('Укажите название', 255).optional(),
  description: z.string().max(5000).nullable().optional(),
  ...translations,
  price: price.optional(),
  duration_minutes: duration.optional(),
  min_people: minPeople.optional(),
});
export type WorkshopUpdate = z.infer<typeof WorkshopUpdate>;

export const WorkshopPublic = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  /** In English and Serbian; null: the Russian one is shown. */
  title_en: z.string().nullable().optional(),
  title_sr: z.string().nullable().optional(),
  description_en: z.string().nullable().optional(),
  description_sr: z.string().nullable().optional(),
  price: z.number().int(),
  duration_minutes: z.number().int().optional(),
  /** Fewest people its sessions run with (0: no minimum). */
  min_people: z.number().int().optional(),
});
export type WorkshopPublic = z.infer<typeof WorkshopPublic>;

export const WorkshopsPublic = listOf(WorkshopPublic);
export type WorkshopsPublic = z.infer<typeof WorkshopsPublic>;
