/**
 * Mantine's NumberInput reports '' for an empty field; the form keeps NaN instead, so the contract's
 * z.number() refuses it with its own message ('Введите число').
 */
export const numberValue = (value: number | undefined): number | '' =>
  value === undefined || Number.isNaN(value) ? '' : value;

export const onNumberChange = (onChange: (value: number) => void) => (value: number | string) =>
  onChange(value === '' ? Number.NaN : Number(value));
