/** A query string of the non-empty values. */
export const query = (values: Record<string, string>) =>
  new URLSearchParams(Object.entries(values).filter(([, v]) => v !== '')).toString();
