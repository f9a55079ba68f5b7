import { z } from 'zod';
import { BusinessSettings } from '../../../contract/business-settings';

/** The reminder hours are typed as "24, 3"; the contract's list rules then apply to the numbers. */
const HoursText = z
  .string()
  .transform((text) =>
    text
      .split(/[,;\s]+/)
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN)),
  )
  .pipe(BusinessSettings.shape.reminder_hours);
/** The certificate amounts on sale are typed as "3 500, 5 000" (spaces inside a number are its thousands). */
const AmountsText = z
  .string()
  .transform((text) =>
    text
      .split(/[,;]+/)
      .map((part) => part.replace(/\s/g, ''))
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN)),
  )
  .pipe(BusinessSettings.shape.certificate_amounts);
export const FormSchema = BusinessSettings.extend({ reminder_hours: HoursText, certificate_amounts: AmountsText });
/** What the form holds (the lists as text), shared with its parts in other files. */
export type FormInput = z.input<typeof FormSchema>;
